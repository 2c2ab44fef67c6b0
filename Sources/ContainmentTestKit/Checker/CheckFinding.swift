/// Something a check found wrong, in terms of the contract.
public struct CheckFinding: Sendable, Hashable, CustomStringConvertible {
  /// Which check found it.
  public let kind: CheckFindingKind
  /// What is wrong, with the names of the controllers and operations involved.
  public let message: String

  /// A finding of `kind`.
  public init(_ kind: CheckFindingKind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// `kind: message`.
  public var description: String { "\(kind): \(message)" }
}
