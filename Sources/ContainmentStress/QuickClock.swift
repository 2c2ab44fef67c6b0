/// The continuous clock, with every sleep `factor` times shorter: the run's
/// animations (300 ms each for presentations) would otherwise hold a worker
/// for the whole animation and starve the rest of the workload.
///
/// Timestamps stay real, so events still order against the workload's own
/// times.
struct QuickClock: Clock {
  typealias Instant = ContinuousClock.Instant
  typealias Duration = Swift.Duration

  let factor: Int
  private let base = ContinuousClock()

  var now: Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let remaining = base.now.duration(to: deadline)
    guard remaining > .zero else { return try Task.checkCancellation() }
    try await base.sleep(until: base.now.advanced(by: remaining / factor), tolerance: tolerance)
  }
}
