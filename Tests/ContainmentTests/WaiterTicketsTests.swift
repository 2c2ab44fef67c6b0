import ContainmentLocking
import Testing

/// A task's cancellation is never lost between taking a ticket and parking
/// (R3): one that comes first fails the late arrival, and only that one; a
/// parked waiter is handed back to its cancellation.
struct WaiterTicketsTests {
  @Test func aCancellationBeforeArrivalFailsTheArrivalAndOnlyThatOne_R3() {
    var tickets = WaiterTickets()
    let early = tickets.issue()
    let other = tickets.issue()
    tickets.cancelBeforeArrival(early)
    let arrivals = [tickets.arrive(early), tickets.arrive(other)]
    #expect(arrivals == [false, true])
  }

  @Test func parkedWaitersHandBackAWaiterCancelledWhileParkedAndFailOneCancelledBeforeParking_R3() {
    var waiters = ParkedWaiters<String>()
    let parked = waiters.issue()
    let late = waiters.issue()
    let parkedArrived = waiters.arrive(parked)
    waiters.park(parked, "parked")
    let cancelled = [waiters.cancel(parked), waiters.cancel(late)]
    let lateArrived = waiters.arrive(late)
    #expect(parkedArrived)
    #expect(cancelled == ["parked", nil])
    #expect(lateArrived == false)
    #expect(waiters.count == 0)
  }
}
