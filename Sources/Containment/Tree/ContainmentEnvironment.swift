/// What a tree takes from outside: the clock every wait (animations,
/// timeouts) goes through (T3), how long a teardown waits for its
/// stop hooks and for the calls still running when it starts (V3), how long
/// one call into user code may run and what happens to a controller whose
/// code does not return in time (V1, V2), and when a long call is reported
/// (V6).
///
/// Set it on a ``Window`` or on a controller (``ViewController/environment``):
/// a controller uses the nearest one set on itself, an ancestor, its presenter
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
  /// What happens to a controller once faulted (V2).
  ///
  /// Default: ``FaultPolicy/isolate``.
  public let faultPolicy: FaultPolicy
  /// After how much of its own time a call into user code is reported with
  /// a `hookStalled` event, and again after each further interval; nil (the
  /// default): never.
  ///
  /// Nothing is cancelled (V6).
  public let stallWarning: Duration?
  private let epoch: @Sendable () -> Duration
  private let sleeper: @Sendable (Duration) async throws -> Void

  /// Uses `clock` for every wait and timestamp of the tree, `teardown` for
  /// its teardown's deadlines, `hookDeadline` to bound each call into user
  /// code (nil: no bound), `faultPolicy` for the controllers whose code
  /// misses it, and `stallWarning` to report long calls (nil: never).
  public init<C: Clock<Duration>>(
    clock: C, teardown: TeardownPolicy = .waitForever, hookDeadline: Duration? = nil,
    faultPolicy: FaultPolicy = .isolate, stallWarning: Duration? = nil
  ) {
    self.clock = clock
    self.teardown = teardown
    self.hookDeadline = hookDeadline
    self.faultPolicy = faultPolicy
    self.stallWarning = stallWarning.flatMap { $0 > .zero ? $0 : nil }
    if C.self == ContinuousClock.self {
      // The default clock reads time in concrete code: a generic closure
      // reached the clock through its witnesses on every event's timestamp.
      let start = ContinuousClock.now
      self.epoch = { start.duration(to: .now) }
    } else {
      let start = clock.now
      self.epoch = { start.duration(to: clock.now) }
    }
    self.sleeper = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
    if supervises { CallSupervision.activate() }
  }

  /// The continuous clock.
  public static let `default` = ContainmentEnvironment(clock: ContinuousClock())

  /// Whether calls into user code under this environment are supervised: a
  /// deadline, stall reports, or a teardown that can cancel and abandon them.
  var supervises: Bool {
    hookDeadline != nil || stallWarning != nil || teardown.graceful != nil || teardown.abandonAfter != nil
  }

  /// Time since this environment was made, on its clock: event timestamps.
  public func elapsed() -> Duration { epoch() }

  /// Sleeps for `duration` on the clock.
  ///
  /// Throws `CancellationError` if the task is cancelled. A zero or negative
  /// duration returns at once.
  public func sleep(for duration: Duration) async throws {
    if duration <= .zero { return }
    try await sleeper(duration)
  }
}

/// A controller's own environment: nil (inherited) until one is set.
extension Optional: OutOfLineValue where Wrapped == ContainmentEnvironment {
  init() { self = nil }
}
