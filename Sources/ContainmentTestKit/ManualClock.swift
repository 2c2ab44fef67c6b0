import Containment
import ContainmentLocking

/// A clock whose time stands still until a test moves it with ``advance(by:)`` or ``advance(to:)``.
///
/// Use it wherever production code takes an `any Clock<Duration>` to make timeouts, delays and
/// retries deterministic: the code under test suspends in ``sleep(until:tolerance:)``, the test
/// waits for it with ``sleepers(atLeast:)`` and then advances time explicitly. No real time passes.
///
/// Thread safety: every member may be called from any thread or task. All state lives behind one
/// `Locked` (a pthread mutex Thread Sanitizer understands); continuations are always resumed after that lock has been released.
///
/// Time starts at ``Instant/zero`` and never moves backwards.
public final class ManualClock: Clock, Sendable {
  /// The clock's duration type, `Swift.Duration`, so the clock fits any `any Clock<Duration>` parameter.
  public typealias Duration = Swift.Duration

  /// A point in manual time: a fixed ``offset`` from the clock's zero instant.
  ///
  /// Plain value; safe to share across concurrency domains.
  public struct Instant: InstantProtocol, Hashable, Comparable, CustomStringConvertible, Sendable {
    /// The distance of this instant from ``zero``.
    public var offset: Duration

    /// Creates the instant lying `offset` after ``zero``.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant at which every new ``ManualClock`` starts.
    public static let zero = Instant(offset: .zero)

    /// Returns the instant `duration` later than this one (earlier if `duration` is negative).
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// Returns the duration from this instant to `other` (negative if `other` is earlier).
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Orders instants by their offset from ``zero``.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset from zero, for example `"t+1.5 seconds"`.
    public var description: String {
      "t+\(offset)"
    }
  }

  /// The smallest step the clock can represent: `.zero`, because time moves only when told to.
  public var minimumResolution: Duration { .zero }

  /// The current manual time.
  ///
  /// Changes only through ``advance(by:)`` and ``advance(to:)``.
  ///
  /// Thread-safe; the value may be stale as soon as it is returned if another task advances the clock.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// The number of tasks currently suspended in ``sleep(until:tolerance:)``.
  ///
  /// A sleep counts from the moment its continuation is stored until it is resumed by an advance
  /// or by cancellation. Sleeps whose deadline had already passed never count. Thread-safe.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  private let state = Locked(State())

  /// Creates a clock whose ``now`` is ``Instant/zero`` and that has no sleepers.
  public init() {}

  /// Suspends the calling task until the clock has been advanced to or past `deadline`.
  ///
  /// - If `deadline` is not later than ``now``, returns at once without suspending.
  /// - Otherwise the task is suspended (and counted in ``sleeperCount``) until ``advance(by:)`` or
  ///   ``advance(to:)`` reaches `deadline`. Sleepers released by one advance are resumed in
  ///   deadline order, ties in the order they started waiting.
  ///
  /// Cancellation: like `Task.sleep`, a task that is already cancelled throws `CancellationError`
  /// without waiting, even for a reached deadline. A task cancelled while waiting is removed from
  /// the clock and throws `CancellationError` immediately. Cancellation racing with registration
  /// of the sleep is handled: the sleep is then never stored.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wait for.
  ///   - tolerance: Ignored; manual time is exact.
  /// - Throws: `CancellationError` if the task is cancelled before the deadline is reached.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let ticket = state.withLock { $0.issueTicket() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        register(ticket, deadline: deadline, continuation: continuation)
      }
    } onCancel: {
      cancelSleep(ticket)
    }
  }

  /// Moves time forward by `duration` and resumes every sleeper whose deadline is now reached.
  ///
  /// Equivalent to `advance(to: now.advanced(by: duration))`, performed atomically.
  /// Synchronous: the sleepers are resumed (scheduled to continue) before this method returns, in
  /// deadline order, ties in registration order; their code runs afterwards on their own executors.
  ///
  /// - Precondition: `duration` is not negative.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "ManualClock cannot move backwards (advance(by: \(duration)))")
    let due = state.withLock { $0.moveTime(by: duration) }
    for sleeper in due {
      sleeper.continuation.resume()
    }
  }

  /// Moves time to `instant` and resumes every sleeper whose deadline is now reached.
  ///
  /// Synchronous: the sleepers are resumed (scheduled to continue) before this method returns, in
  /// deadline order, ties in registration order. Advancing to the current instant is allowed and
  /// releases nothing new.
  ///
  /// - Precondition: `instant` is not earlier than ``now``.
  public func advance(to instant: Instant) {
    let due = state.withLock { state in
      precondition(instant >= state.now, "ManualClock cannot move backwards (from \(state.now) to \(instant))")
      return state.moveTime(by: state.now.duration(to: instant))
    }
    for sleeper in due {
      sleeper.continuation.resume()
    }
  }

  /// Suspends until at least `count` tasks are suspended in ``sleep(until:tolerance:)``.
  ///
  /// Returns at once if ``sleeperCount`` is already at least `count`. Otherwise it waits, without
  /// polling, and is resumed by the registration that brings the count to `count`. Typical use:
  /// start the code under test, `await clock.sleepers(atLeast: 1)`, then ``advance(by:)``.
  ///
  /// Cancellation: if the calling task is or becomes cancelled, this method stops waiting and
  /// returns early; check `Task.isCancelled` if the distinction matters.
  public func sleepers(atLeast count: Int) async {
    let ticket = state.withLock { $0.issueTicket() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        registerCountWaiter(ticket, minimum: count, continuation: continuation)
      }
    } onCancel: {
      cancelCountWaiter(ticket)
    }
  }

  // MARK: - Registration and cancellation

  private func register(
    _ ticket: Ticket,
    deadline: Instant,
    continuation: CheckedContinuation<Void, any Error>
  ) {
    let outcome = state.withLock { $0.registerSleeper(ticket, deadline: deadline, continuation: continuation) }
    switch outcome {
    case .returnNow:
      continuation.resume()
    case .cancelled:
      continuation.resume(throwing: CancellationError())
    case .suspended(let satisfiedWaiters):
      for waiter in satisfiedWaiters {
        waiter.resume()
      }
    }
  }

  private func cancelSleep(_ ticket: Ticket) {
    let sleeper = state.withLock { $0.cancelSleeper(ticket) }
    sleeper?.continuation.resume(throwing: CancellationError())
  }

  private func registerCountWaiter(
    _ ticket: Ticket,
    minimum: Int,
    continuation: CheckedContinuation<Void, Never>
  ) {
    let resumeNow = state.withLock { $0.registerCountWaiter(ticket, minimum: minimum, continuation: continuation) }
    if resumeNow {
      continuation.resume()
    }
  }

  private func cancelCountWaiter(_ ticket: Ticket) {
    let waiter = state.withLock { $0.cancelCountWaiter(ticket) }
    waiter?.continuation.resume()
  }
}

// MARK: - State

extension ManualClock {
  /// Identifies one call of `sleep` or `sleepers(atLeast:)` from before its continuation exists.
  private typealias Ticket = UInt64

  /// A ticket whose continuation has not been stored yet, and whether it was cancelled meanwhile.
  private enum PendingTicket {
    case issued
    case cancelled
  }

  private struct Sleeper {
    var deadline: Instant
    /// Position in registration order; breaks ties between equal deadlines.
    var registration: UInt64
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct CountWaiter {
    var minimum: Int
    var continuation: CheckedContinuation<Void, Never>
  }

  private enum SleeperRegistration {
    /// The deadline had already been reached.
    case returnNow
    /// The task was cancelled before its continuation was stored.
    case cancelled
    /// The sleeper is stored; these count waiters are now satisfied and must be resumed.
    case suspended(satisfiedWaiters: [CheckedContinuation<Void, Never>])
  }

  /// All mutable state of a clock.
  ///
  /// Only ever touched inside `Locked.withLock`; never resumes anything.
  private struct State {
    var now = Instant.zero
    var nextTicket: Ticket = 0
    var nextRegistration: UInt64 = 0
    /// Tickets (of both kinds) issued but not yet registered.
    var pendingTickets: [Ticket: PendingTicket] = [:]
    var sleepers: [Ticket: Sleeper] = [:]
    var countWaiters: [Ticket: CountWaiter] = [:]

    mutating func issueTicket() -> Ticket {
      defer { nextTicket += 1 }
      pendingTickets[nextTicket] = .issued
      return nextTicket
    }

    mutating func registerSleeper(
      _ ticket: Ticket,
      deadline: Instant,
      continuation: CheckedContinuation<Void, any Error>
    ) -> SleeperRegistration {
      if pendingTickets.removeValue(forKey: ticket) == .cancelled {
        return .cancelled
      }
      guard deadline > now else {
        return .returnNow
      }
      sleepers[ticket] = Sleeper(deadline: deadline, registration: nextRegistration, continuation: continuation)
      nextRegistration += 1
      let satisfied = countWaiters.filter { $0.value.minimum <= sleepers.count }
      for ticket in satisfied.keys {
        countWaiters[ticket] = nil
      }
      return .suspended(satisfiedWaiters: satisfied.values.map(\.continuation))
    }

    /// Removes and returns the sleeper if it is stored; otherwise marks a pending ticket cancelled.
    mutating func cancelSleeper(_ ticket: Ticket) -> Sleeper? {
      if let sleeper = sleepers.removeValue(forKey: ticket) {
        return sleeper
      }
      if pendingTickets[ticket] != nil {
        pendingTickets[ticket] = .cancelled
      }
      return nil
    }

    /// Moves `now` and removes the sleepers that became due, returned in wake-up order.
    mutating func moveTime(by duration: Duration) -> [Sleeper] {
      now = now.advanced(by: duration)
      let due = sleepers.values
        .filter { $0.deadline <= now }
        .sorted { ($0.deadline, $0.registration) < ($1.deadline, $1.registration) }
      sleepers = sleepers.filter { $0.value.deadline > now }
      return due
    }

    /// Stores the waiter unless already satisfied or cancelled; returns whether to resume it now.
    mutating func registerCountWaiter(
      _ ticket: Ticket,
      minimum: Int,
      continuation: CheckedContinuation<Void, Never>
    ) -> Bool {
      if pendingTickets.removeValue(forKey: ticket) == .cancelled || sleepers.count >= minimum {
        return true
      }
      countWaiters[ticket] = CountWaiter(minimum: minimum, continuation: continuation)
      return false
    }

    /// Removes and returns the waiter if it is stored; otherwise marks a pending ticket cancelled.
    mutating func cancelCountWaiter(_ ticket: Ticket) -> CountWaiter? {
      if let waiter = countWaiters.removeValue(forKey: ticket) {
        return waiter
      }
      if pendingTickets[ticket] != nil {
        pendingTickets[ticket] = .cancelled
      }
      return nil
    }
  }
}
