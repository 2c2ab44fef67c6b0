/// How an operation of a burst went, as the checker saw it from outside.
struct OperationRecord: Sendable {
  /// What was scheduled.
  var scheduled: ScheduledOperation
  /// Its lane in the burst.
  var lane: Int
  /// ``RealTimeStamp``s taken just before the call and just after it returned.
  var start: UInt64
  var end: UInt64
  var outcome: OperationOutcome
  /// Whether its task was cancelled before it returned.
  var wasCancelled: Bool

  /// A cancelled operation that threw may have done nothing (a request
  /// cancelled while it waited: R3): the replay may leave it out, and does
  /// not compare its error.
  var isOptional: Bool {
    if case .threw = outcome { return wasCancelled }
    return false
  }

  /// Whether this one returned before `other` was called.
  func precedes(_ other: OperationRecord) -> Bool { end < other.start }
}
