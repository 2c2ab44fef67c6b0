/// Operations that run concurrently, one lane per task: each lane performs
/// its operations one after the other, all lanes at once.
///
/// A burst ends when every lane is done and the tree is idle: a quiescent
/// point, where the checker checks what the burst did.
public struct ScheduledBurst: Sendable, Hashable, CustomStringConvertible {
  /// The lanes; each is the sequence one task performs.
  public var lanes: [[ScheduledOperation]]

  /// A burst of `lanes` (empty lanes are allowed and do nothing).
  public init(_ lanes: [[ScheduledOperation]]) {
    self.lanes = lanes
  }

  /// How many operations the burst performs.
  public var operationCount: Int { lanes.reduce(0) { $0 + $1.count } }

  /// The burst in readable form, for example `[tap first] ‖ [tap second, dismiss]`.
  public var description: String {
    lanes.map { "[\($0.map(\.description).joined(separator: ", "))]" }.joined(separator: " ‖ ")
  }
}
