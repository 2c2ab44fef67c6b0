import ContainmentTestKit
import Dispatch
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ManualClockTests {
  private typealias Instant = ManualClock.Instant

  @Test func sleepersWakeInDeadlineOrderWithTiesInRegistrationOrder() async throws {
    let clock = ManualClock()
    let log = EventLog()
    // One FIFO thread runs every sleeper, so they continue in exactly the order they are resumed.
    let executor = SerialTaskExecutor()
    var sleepers: [Task<Void, any Error>] = []
    for (name, seconds) in [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)] {
      sleepers.append(
        Task(executorPreference: executor) {
          try await clock.sleep(until: Instant(offset: .seconds(seconds)))
          log.append("\(name) at \(clock.now)")
        })
      await clock.sleepers(atLeast: sleepers.count)
    }
    // The last sleeper may still be finishing its suspension on the executor thread; a task resumed
    // before it has fully suspended continues at once, ahead of jobs already queued.
    await executor.runQueuedJobs()

    clock.advance(by: .seconds(3))
    for sleeper in sleepers {
      try await sleeper.value
    }

    #expect(log.entries == ["a at t+3.0 seconds", "b1 at t+3.0 seconds", "b2 at t+3.0 seconds", "c at t+3.0 seconds"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func sleeperWakesExactlyWhenTimeReachesItsDeadline() async throws {
    let clock = ManualClock()
    let log = EventLog()
    let first = Task {
      try await clock.sleep(until: Instant(offset: .seconds(1)))
      log.append("first at \(clock.now)")
    }
    let second = Task {
      try await clock.sleep(until: Instant(offset: .seconds(2)))
      log.append("second at \(clock.now)")
    }
    await clock.sleepers(atLeast: 2)

    clock.advance(by: .milliseconds(999))
    #expect(clock.sleeperCount == 2)

    clock.advance(by: .milliseconds(1))
    try await first.value
    #expect(log.entries == ["first at t+1.0 seconds"])
    #expect(clock.sleeperCount == 1)

    clock.advance(to: Instant(offset: .seconds(2)))
    try await second.value
    #expect(log.entries == ["first at t+1.0 seconds", "second at t+2.0 seconds"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func partialAdvanceWakesNoSleeper() async throws {
    let clock = ManualClock()
    let log = EventLog()
    let sleeper = Task {
      try await clock.sleep(until: Instant(offset: .seconds(5)))
      log.append("woke at \(clock.now)")
    }
    await clock.sleepers(atLeast: 1)

    clock.advance(by: .seconds(2))
    clock.advance(by: .seconds(2))
    clock.advance(to: Instant(offset: .seconds(4)))

    #expect(clock.now == Instant(offset: .seconds(4)))
    #expect(clock.sleeperCount == 1)
    #expect(log.entries.isEmpty)

    clock.advance(by: .seconds(1))
    try await sleeper.value
    #expect(log.entries == ["woke at t+5.0 seconds"])
  }

  @Test func deadlineAlreadyReachedReturnsWithoutSuspending() async throws {
    let clock = ManualClock()
    clock.advance(to: Instant(offset: .seconds(5)))

    // Each call would hang (and hit the time limit) if it suspended: nothing advances the clock.
    try await clock.sleep(until: Instant(offset: .seconds(3)))
    try await clock.sleep(until: Instant(offset: .seconds(5)))
    try await clock.sleep(until: .zero)

    #expect(clock.sleeperCount == 0)
    #expect(clock.now == Instant(offset: .seconds(5)))
  }

  @Test func cancellationBeforeRegistrationThrowsCancellationError() async throws {
    let clock = ManualClock()
    let sleeper = Task {
      // Cancelled before `sleep` starts: the cancellation handler runs before the sleeper is stored.
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(until: Instant(offset: .seconds(1)))
    }

    let result = await sleeper.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellationAfterRegistrationThrowsAndRemovesOnlyThatSleeper() async throws {
    let clock = ManualClock()
    let log = EventLog()
    let cancelled = Task {
      try await clock.sleep(until: Instant(offset: .seconds(1)))
    }
    let survivor = Task {
      try await clock.sleep(until: Instant(offset: .seconds(1)))
      log.append("survivor at \(clock.now)")
    }
    await clock.sleepers(atLeast: 2)

    cancelled.cancel()
    let result = await cancelled.result

    #expect(throws: CancellationError.self) { try result.get() }
    #expect(clock.sleeperCount == 1)
    #expect(clock.now == .zero)

    clock.advance(by: .seconds(1))
    try await survivor.value
    #expect(log.entries == ["survivor at t+1.0 seconds"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func sleepersAtLeastReturnsOnceThatManyAreSuspended() async throws {
    let clock = ManualClock()
    let executor = SerialTaskExecutor()
    // On one FIFO thread the waiter is stored before either sleeper registers.
    let waiter = Task(executorPreference: executor) {
      await clock.sleepers(atLeast: 2)
      return clock.sleeperCount
    }
    let sleepers = (1...2).map { _ in
      Task(executorPreference: executor) {
        try await clock.sleep(until: Instant(offset: .seconds(1)))
      }
    }

    #expect(await waiter.value == 2)
    await clock.sleepers(atLeast: 1)  // already satisfied: returns at once

    clock.advance(by: .seconds(1))
    for sleeper in sleepers {
      try await sleeper.value
    }
    #expect(clock.sleeperCount == 0)
  }

  @Test func sleepersAtLeastReturnsEarlyWhenCancelled() async {
    let clock = ManualClock()
    let waiter = Task {
      await clock.sleepers(atLeast: 1)
      return Task.isCancelled
    }

    waiter.cancel()

    #expect(await waiter.value == true)
    #expect(clock.sleeperCount == 0)
  }

  @Test func worksAsAnyClockOfDuration() async throws {
    let clock = ManualClock()
    let anyClock: any Clock<Duration> = clock
    let sleeper = Task {
      try await anyClock.sleep(for: .milliseconds(250))
    }
    await clock.sleepers(atLeast: 1)

    clock.advance(by: .milliseconds(250))
    try await sleeper.value

    #expect(clock.sleeperCount == 0)
  }

  @Test func instantArithmeticAndDescription() {
    let start = Instant.zero
    let later = start.advanced(by: .milliseconds(1500))

    #expect(later.offset == .milliseconds(1500))
    #expect(start.duration(to: later) == .milliseconds(1500))
    #expect(later.duration(to: start) == .milliseconds(-1500))
    #expect(start < later)
    #expect(later.description == "t+1.5 seconds")
    #expect(ManualClock().minimumResolution == .zero)
  }
}

/// An append-only list of events, safe to write from any task.
private final class EventLog: Sendable {
  private let storage = Mutex<[String]>([])

  var entries: [String] {
    storage.withLock { $0 }
  }

  func append(_ entry: String) {
    storage.withLock { $0.append(entry) }
  }
}

/// Runs jobs one at a time on a serial dispatch queue, in the order they are enqueued.
///
/// Tasks preferring this executor run their nonisolated code (including `ManualClock.sleep`) here,
/// so continuations resumed in order A, B continue in order A, B.
private final class SerialTaskExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "ManualClockTests.SerialTaskExecutor")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
    }
  }

  /// Returns once every job enqueued before the call has finished running.
  func runQueuedJobs() async {
    await Task(executorPreference: self) {}.value
  }
}
