/// Runs a workload once to warm up, then `repetitions` times, and turns the
/// timed durations into a ``Figure`` (median of the repetitions).
///
/// A workload is a closure that is given an operation count, does its own
/// untimed setup, times only the operations with ``Stopwatch`` and returns the
/// elapsed time. Workloads run one at a time, in the caller's task.
struct Sampler: Sendable {
  let repetitions: Int
  /// Only figures whose key contains this run (`--filter`); the others are
  /// skipped and come back with no samples.
  var filter: String? = nil

  /// A filter ending in `$` must match the whole key (`runtime.pushpop$`
  /// runs `runtime.pushpop` but not `runtime.pushpop-threestep`).
  func selects(_ key: String) -> Bool {
    guard let filter else { return true }
    return filter.hasSuffix("$") ? key == String(filter.dropLast()) : key.contains(filter)
  }

  private func skipped(_ key: String, _ group: BenchGroup, _ unit: Figure.Unit) -> Figure {
    Figure(key: key, group: group, label: "", unit: unit, samples: [], operations: 0)
  }

  /// Times `operations` operations per repetition and reports ns per operation.
  func perOperation(
    _ key: String, group: BenchGroup, _ label: String, operations: Int,
    note: String = "",
    _ workload: (Int) async throws -> Duration
  ) async rethrows -> Figure {
    guard selects(key) else { return skipped(key, group, .nanosecondsPerOperation) }
    _ = try await workload(max(1, operations / 4))
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let elapsed = try await workload(operations)
      samples.append(elapsed.nanoseconds / Double(operations))
    }
    return Figure(
      key: key, group: group, label: label, unit: .nanosecondsPerOperation, samples: samples,
      operations: operations, note: note)
  }

  /// Like ``perOperation(_:group:_:operations:note:_:)``, with the
  /// operation count chosen so that one repetition takes about `seconds`
  /// (never more than `limit` operations, never fewer than `probe`): for
  /// figures whose cost per operation may differ by orders of magnitude
  /// between versions of the runtime (a deep stack, a wide container), so
  /// that a slow version keeps the run short and a fast one is still timed
  /// over enough operations.
  ///
  /// A first run of `probe` operations, untimed for the figure, measures the
  /// cost.
  func perOperation(
    _ key: String, group: BenchGroup, _ label: String, seconds: Double, limit: Int, probe: Int = 10,
    note: String = "",
    _ workload: (Int) async throws -> Duration
  ) async rethrows -> Figure {
    guard selects(key) else { return skipped(key, group, .nanosecondsPerOperation) }
    let perOperation = max(try await workload(probe).nanoseconds / Double(probe), 1)
    let operations = min(limit, max(probe, Int(seconds * 1e9 / perOperation)))
    return try await self.perOperation(key, group: group, label, operations: operations, note: note, workload)
  }

  /// Times a whole workload per repetition and reports seconds.
  func whole(
    _ key: String, group: BenchGroup, _ label: String, repetitions overridden: Int? = nil, warmUp: Bool = true,
    note: String = "",
    _ workload: () async throws -> Duration
  ) async rethrows -> Figure {
    guard selects(key) else { return skipped(key, group, .seconds) }
    if warmUp { _ = try await workload() }
    var samples: [Double] = []
    for _ in 0..<(overridden ?? repetitions) {
      samples.append(try await workload().nanoseconds / 1e9)
    }
    return Figure(key: key, group: group, label: label, unit: .seconds, samples: samples, operations: 1, note: note)
  }
}

/// Measures elapsed time on the continuous clock.
struct Stopwatch: Sendable {
  private static let clock = ContinuousClock()
  private let start: ContinuousClock.Instant

  /// Starts now.
  init() { start = Self.clock.now }

  /// Time since ``init()``.
  var elapsed: Duration { Self.clock.now - start }

  /// Times `body`.
  static func time(_ body: () async throws -> Void) async rethrows -> Duration {
    let watch = Stopwatch()
    try await body()
    return watch.elapsed
  }
}

/// Keeps a value observable so the optimizer cannot delete the work that
/// produced it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// A benchmark found that the runtime lost or duplicated work: a failed
/// correctness check, not a slow figure.
struct BenchCheckFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
