/// Tasks parked on continuations, each under an id issued before it parks,
/// so that its task's cancellation — which may come at any moment, also
/// before the continuation exists — is never lost: a cancellation that comes
/// first is remembered, and the late arrival learns of it.
///
/// A value kept inside the state its owner's lock guards; the waiters it
/// hands back are resumed after that lock is released.
public struct ParkedWaiters<Waiter> {
  private var tickets = WaiterTickets()
  private var parked: [(id: UInt64, waiter: Waiter)] = []

  /// No waiters.
  public init() {}

  /// How many are parked.
  public var count: Int { parked.count }

  /// An id for a task about to park (issued before its continuation exists).
  public mutating func issue() -> UInt64 { tickets.issue() }

  /// The task of `id` has its continuation: false if the task was
  /// cancelled first (then it must not park).
  public mutating func arrive(_ id: UInt64) -> Bool { tickets.arrive(id) }

  /// Parks an arrived task.
  public mutating func park(_ id: UInt64, _ waiter: Waiter) {
    parked.append((id, waiter))
  }

  /// The task of `id` was cancelled: its parked waiter, or nil (remembered
  /// if it has not arrived yet).
  public mutating func cancel(_ id: UInt64) -> Waiter? {
    if let index = parked.firstIndex(where: { $0.id == id }) { return parked.remove(at: index).waiter }
    tickets.cancelBeforeArrival(id)
    return nil
  }

  /// Removes and returns the parked waiters `isReady` accepts, in the order they parked.
  public mutating func take(where isReady: (Waiter) -> Bool) -> [Waiter] {
    var taken: [Waiter] = []
    parked.removeAll { entry in
      guard isReady(entry.waiter) else { return false }
      taken.append(entry.waiter)
      return true
    }
    return taken
  }
}
