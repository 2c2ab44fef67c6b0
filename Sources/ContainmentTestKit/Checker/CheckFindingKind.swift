/// The check behind a ``CheckFinding``, most telling first.
public struct CheckFindingKind: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// A short stable name ("linearizability", "hookOrder", ...).
  public let name: String
  let rank: Int

  /// The factory threw, or two fresh containers differ before any operation.
  public static let setup = CheckFindingKind(name: "setup", rank: 0)
  /// A controller's hook sequence breaks the contract's grammar (C1–C5,
  /// A1–A3): a second `viewDidLoad`, a did-hook without its will-hook,
  /// `willMove(toParent:)` without `didMove` at a quiescent point, a hook
  /// log that disagrees with the controller's state.
  public static let hookOrder = CheckFindingKind(name: "hookOrder", rank: 1)
  /// An event outside any transaction, or one transaction's events
  /// interleaved with another's on one controller (R1, E3).
  public static let transaction = CheckFindingKind(name: "transaction", rank: 2)
  /// No sequential order of the completed operations, consistent with real
  /// time, gives the same hook sequences, results and final tree (R4).
  public static let linearizability = CheckFindingKind(name: "linearizability", rank: 3)
  /// `checkInvariants(quiescent:)` reported a broken §2
  /// invariant at a quiescent point.
  public static let invariant = CheckFindingKind(name: "invariant", rank: 4)
  /// Something was still alive after its window was torn down and released.
  public static let leak = CheckFindingKind(name: "leak", rank: 5)

  /// Orders by how telling a finding of the kind is, for reduction.
  public static func < (lhs: CheckFindingKind, rhs: CheckFindingKind) -> Bool { lhs.rank < rhs.rank }

  /// The name.
  public var description: String { name }
}
