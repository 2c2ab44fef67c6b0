/// What a tree takes from outside: the clock every wait (animations,
/// timeouts) goes through (T3), and how long a teardown waits for its
/// stop hooks (V3). Set it on a ``Window`` or on a root
/// controller's node; descendants use the nearest one above them, and the
/// default is `ContinuousClock`.
public struct ContainmentEnvironment: Sendable {
  /// The clock transitions and batches wait on.
  public let clock: any Clock<Duration>
  /// How long a teardown of the tree waits for its stop hooks.
  public let teardown: TeardownPolicy
  private let epoch: @Sendable () -> Duration
  private let sleeper: @Sendable (Duration) async throws -> Void

  /// Uses `clock` for every wait and timestamp of the tree, and `teardown`
  /// for its teardown's deadlines.
  public init<C: Clock<Duration>>(clock: C, teardown: TeardownPolicy = .waitForever) {
    self.clock = clock
    self.teardown = teardown
    let start = clock.now
    self.epoch = { start.duration(to: clock.now) }
    self.sleeper = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
  }

  /// The continuous clock.
  public static let `default` = ContainmentEnvironment(clock: ContinuousClock())

  /// Time since this environment was made, on its clock: event timestamps.
  public func elapsed() -> Duration { epoch() }

  /// Sleeps for `duration` on the clock. Throws `CancellationError` if the
  /// task is cancelled. A zero or negative duration returns at once.
  public func sleep(for duration: Duration) async throws {
    if duration <= .zero { return }
    try await sleeper(duration)
  }
}
