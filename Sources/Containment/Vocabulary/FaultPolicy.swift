/// What the runtime does with a controller whose hook ran past its
/// environment's ``ContainmentEnvironment/hookDeadline`` (V2).
///
/// Whatever the policy, the controller is faulted first: its later hooks are
/// skipped and reported (`hookSkipped`), and ``ViewController/isFaulted`` reads
/// true.
///
/// The policy is the faulted controller's environment's; the action runs as
/// a request of its own once the transaction that saw the fault has ended
/// (queued behind what is already queued there, never run inside it).
public struct FaultPolicy: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable, Hashable { case isolate, tearDownTree, reportOnly }
  let kind: Kind

  /// Removes the faulted controller and its subtree from the tree, with
  /// reason ``RemovalReason/faulted``: from its parent (the
  /// `childRemoved` event and the removal's hooks, the faulted controller's
  /// own skipped), or, for a window's root, from its window; a presented
  /// controller is dismissed.
  ///
  /// A built-in container keeps showing something: a ``NavigationController``
  /// shows the controller below a faulted top, a ``TabBarController`` selects
  /// the neighbour of a faulted selected tab. The rest of the tree carries on.
  /// The default.
  public static let isolate = FaultPolicy(kind: .isolate)
  /// Tears the faulted controller's whole tree down (V3): its window's, or
  /// its root controller's if it is in none.
  public static let tearDownTree = FaultPolicy(kind: .tearDownTree)
  /// Only reports: the controller stays where it is, faulted.
  public static let reportOnly = FaultPolicy(kind: .reportOnly)

  /// The policy's name ("isolate", ...).
  public var description: String { "\(kind)" }
}
