/// Tickets for tasks about to park on a continuation, so that a
/// cancellation that reaches a task before its continuation exists is not
/// lost.
///
/// A task takes a ticket (``issue()``) before it creates its continuation,
/// and shows it when it has one (``arrive(_:)``). Its cancellation handler
/// may run at any moment on another thread: if the task has not parked yet,
/// the owner records it (``cancelBeforeArrival(_:)``) and the late arrival
/// learns of it, instead of parking for ever (the "cancelled placeholder" of
/// swift-async-algorithms' channels).
///
/// A value kept inside the state its owner's lock guards; it holds only ids.
/// ``ParkedWaiters`` and the transaction queue (which parks tasks among its
/// jobs, in one FIFO) keep their waiters on it.
public struct WaiterTickets {
  private var last: UInt64 = 0
  private var outstanding: Set<UInt64> = []
  private var cancelledFirst: Set<UInt64> = []

  /// No tickets.
  public init() {}

  /// A ticket for a task about to park (issued before its continuation
  /// exists).
  public mutating func issue() -> UInt64 {
    last += 1
    outstanding.insert(last)
    return last
  }

  /// The task of `ticket` has its continuation: false if it was cancelled
  /// first (then it must not park).
  public mutating func arrive(_ ticket: UInt64) -> Bool {
    outstanding.remove(ticket)
    return cancelledFirst.remove(ticket) == nil
  }

  /// The task of `ticket` was cancelled and its owner found it not parked:
  /// remembered if it has not arrived yet (nothing, if it already left).
  public mutating func cancelBeforeArrival(_ ticket: UInt64) {
    if outstanding.contains(ticket) { cancelledFirst.insert(ticket) }
  }
}
