import Dispatch
import Testing

@testable import Containment
@testable import ContainmentLocking

/// State that only the lock guards: plain stored properties, so a section
/// that ran while another held the lock would lose updates or see the
/// other's `inside` flag (and Thread Sanitizer would report the race).
private final class Guarded: @unchecked Sendable {
  let lock = Locked<UInt8>(0)
  let tries: Int
  var count = 0
  var inside = false
  var overlaps = 0

  init(tries: Int) { self.tries = tries }

  /// `rounds` sections on each of `threads` threads.
  func hammer(threads: Int, rounds: Int) {
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<rounds {
        lock.withLock(retrying: tries) { _ in
          if inside { overlaps += 1 }
          inside = true
          count += 1
          inside = false
        }
      }
    }
  }
}

@Suite struct RetryingLockTests {
  @Test func sectionsOnManyThreadsNeverOverlapAndLoseNoUpdate() {
    let guarded = Guarded(tries: 100)
    guarded.hammer(threads: 4, rounds: 20_000)
    #expect(guarded.overlaps == 0)
    #expect(guarded.count == 4 * 20_000)
  }

  /// Waiters that sleep at once, in the OS lock, instead of trying again.
  @Test func waitersThatSleepAreWokenAndLoseNoUpdate() {
    let guarded = Guarded(tries: 0)
    guarded.hammer(threads: 8, rounds: 5_000)
    #expect(guarded.overlaps == 0)
    #expect(guarded.count == 8 * 5_000)
  }
}
