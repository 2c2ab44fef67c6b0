/// A custom container that decides what it shows when the runtime takes one
/// of its children out: a faulted child (V2, ``FaultPolicy/isolate``) or a
/// child torn down (V3, ``ViewController/tearDown()``).
///
/// The built-in containers have such rules (a stack shows the controller
/// below, a tab bar selects a neighbour); this gives a custom container the
/// same guarantee. Without it, the child leaves the UIKit way
/// (`willMove(toParent: nil)`, then its removal) and nothing else changes.
public protocol ChildRemovalPolicy: ViewController {
  /// The change that takes `child` out, with what this container shows
  /// afterwards; nil leaves it the UIKit way.
  ///
  /// Called on this container's actor, inside the transaction on its queue
  /// that takes the child out (requests it makes are nested ones, R2), as a
  /// call into user code: the environment's hook deadline bounds it (V1).
  /// The runtime applies the change with ``ChildrenChange/reason`` set to
  /// `reason`. If it still lists `child`, or is refused (see
  /// ``ViewController/changeChildren(_:)``), the child leaves the UIKit way.
  func childrenChange(removing child: any ViewController, reason: RemovalReason) async -> ChildrenChange?
}

extension ViewController {
  /// Inside a transaction on this container: `child` leaves it by the change
  /// this container asks for (``ChildRemovalPolicy``), with `reason`.
  ///
  /// False, with nothing changed, if this container has no such policy,
  /// asks for no change, keeps the child, or asks for a change that is
  /// refused: then the caller takes the child out the UIKit way.
  nonisolated(nonsending) func removeChildByItsPolicy(
    _ child: any ViewController, reason: RemovalReason, context: TransactionContext
  ) async -> Bool {
    guard let container = self as? any ChildRemovalPolicy else { return false }
    let asked = await Gateway.call(
      UserCall("childrenChange(removing:reason:)", of: self), in: context, ifAbandoned: { nil }
    ) { await container.childrenChange(removing: child, reason: reason) }
    guard var change = asked, !change.children.contains(where: { $0 === child }) else { return false }
    change.reason = reason
    let settled = change
    do {
      try await runChildrenChange(
        reason: reason, context: context, involving: change.children + change.shown.map(\.controller)
      ) { _, _ in settled }
      return true
    } catch {
      return false
    }
  }
}
