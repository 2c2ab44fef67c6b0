/// What a tree takes from outside: the clock every wait (animations,
/// timeouts) goes through (T3), how long a teardown waits for its
/// stop hooks (V3), how long one hook may run and what happens to a
/// controller whose hook does not return in time (V1, V2). Set it on a
/// ``Window`` or on a controller (``ViewController/environment``): a
/// controller uses the nearest one set on itself, an ancestor, its presenter
/// or its window, and the default is `ContinuousClock` with no deadlines.
public struct ContainmentEnvironment: Sendable {
  /// The clock transitions and batches wait on.
  public let clock: any Clock<Duration>
  /// How long a teardown of the tree waits for its stop hooks.
  public let teardown: TeardownPolicy
  /// How long one hook may run, on ``clock``, before the transaction stops
  /// waiting for it and its controller is faulted (V1); nil (the default):
  /// wait forever, as UIKit does.
  public let hookDeadline: Duration?
  /// What happens to a controller once faulted (V2). Default:
  /// ``FaultPolicy/isolate``.
  public let faultPolicy: FaultPolicy
  private let epoch: @Sendable () -> Duration
  private let sleeper: @Sendable (Duration) async throws -> Void

  /// Uses `clock` for every wait and timestamp of the tree, `teardown` for
  /// its teardown's deadlines, `hookDeadline` to bound each hook (nil: no
  /// bound) and `faultPolicy` for the controllers whose hooks miss it.
  public init<C: Clock<Duration>>(
    clock: C, teardown: TeardownPolicy = .waitForever, hookDeadline: Duration? = nil,
    faultPolicy: FaultPolicy = .isolate
  ) {
    self.clock = clock
    self.teardown = teardown
    self.hookDeadline = hookDeadline
    self.faultPolicy = faultPolicy
    if hookDeadline != nil { HookSupervision.activate() }
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
