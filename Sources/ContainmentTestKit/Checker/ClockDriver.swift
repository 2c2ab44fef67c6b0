/// Moves a check's ``ManualClock`` whenever a task sleeps on it, so that
/// animated requests finish without real time passing.
enum ClockDriver {
  /// Runs `body` while a child task advances `clock` (if any) by a step of
  /// 1–256 ms, picked with `seed`, each time a task sleeps on it: an
  /// animation ends after one step or a few, and two animations running at
  /// once end in either order.
  static func run<Value: Sendable>(
    _ clock: ManualClock?, seed: UInt64, _ body: @Sendable () async -> Value
  ) async -> Value {
    guard let clock else { return await body() }
    return await withTaskGroup(of: Void.self) { group in
      group.addTask { await drive(clock, seed: seed) }
      let value = await body()
      group.cancelAll()
      return value
    }
  }

  /// Advances `clock` whenever it has a sleeper, until the task is cancelled.
  private static func drive(_ clock: ManualClock, seed: UInt64) async {
    var generator = SplitMix64(seed: seed)
    while !Task.isCancelled {
      await clock.sleepers(atLeast: 1)
      guard !Task.isCancelled else { return }
      clock.advance(by: .milliseconds(1 + generator.below(256)))
    }
  }
}
