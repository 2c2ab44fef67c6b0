/// A state of a controller's tree that
/// ``ViewController/waitUntil(_:)-(TreeCondition)`` can wait for, beyond
/// appearance (E7, V3).
public struct TreeCondition: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable, Hashable { case idle, tornDown, faulted }
  let kind: Kind

  /// No transaction is running or queued that can touch the controller's
  /// subtree: none on the controller, its descendants or the controllers it
  /// presents, on its ancestors, or on its window, and none deferred onto
  /// one of them (a request from a hook, R2) that is not dispatched yet.
  ///
  /// Transactions of other trees never delay it. What a readiness probe and
  /// a test want.
  public static let idle = TreeCondition(kind: .idle)
  /// The controller was torn down and its streams ended (V3).
  public static let tornDown = TreeCondition(kind: .tornDown)
  /// The controller is faulted: one of its hooks ran past its environment's
  /// ``ContainmentEnvironment/hookDeadline`` (V1).
  public static let faulted = TreeCondition(kind: .faulted)

  /// The condition's name ("idle", ...).
  public var description: String { "\(kind)" }
}
