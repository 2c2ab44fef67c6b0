import Dispatch
import Testing

@testable import Containment

/// State that only the lock guards: plain stored properties, so a section
/// that ran while another held the lock would lose updates or see the
/// other's `inside` flag (and Thread Sanitizer would report the race).
private final class Guarded: @unchecked Sendable {
  let lock = SpinYieldLock()
  var count = 0
  var inside = false
  var overlaps = 0
}

@Suite struct SpinYieldLockTests {
  @Test func sectionsOnManyThreadsNeverOverlapAndLoseNoUpdate() {
    let guarded = Guarded()
    let threads = 4, rounds = 20_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<rounds {
        guarded.lock.lock()
        if guarded.inside { guarded.overlaps += 1 }
        guarded.inside = true
        guarded.count += 1
        guarded.inside = false
        guarded.lock.unlock()
      }
    }
    #expect(guarded.overlaps == 0)
    #expect(guarded.count == threads * rounds)
  }
}
