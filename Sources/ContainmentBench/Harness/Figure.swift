/// One measured figure: the median of several repetitions after a warm-up,
/// with the spread of the repetitions.
struct Figure: Sendable {
  enum Unit: String, Sendable {
    /// Nanoseconds per operation (lower is better).
    case nanosecondsPerOperation = "ns/op"
    /// Seconds for the whole workload.
    case seconds = "s"
    /// Bytes per item.
    case bytes = "B"
    /// Operations per second (higher is better).
    case operationsPerSecond = "op/s"
  }

  /// Stable identifier, used by the targets and in the JSON.
  let key: String
  let group: BenchGroup
  /// What was measured, in words.
  let label: String
  let unit: Unit
  /// The value of each repetition, in `unit`.
  let samples: [Double]
  /// Operations per repetition (1 for whole-workload figures).
  let operations: Int
  /// A short remark printed beside the figure (what was checked, caveats).
  var note: String = ""

  var median: Double { samples.median }
  var minimum: Double { samples.min() ?? .nan }
  var maximum: Double { samples.max() ?? .nan }

  /// (max - min) / median: how much the repetitions disagreed.
  var spread: Double {
    guard median != 0, samples.count > 1 else { return 0 }
    return (maximum - minimum) / median
  }
}

extension Array where Element == Double {
  /// The median; the mean of the middle two for an even count; NaN when empty.
  var median: Double {
    guard !isEmpty else { return .nan }
    let sorted = self.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}

extension Duration {
  /// The duration in nanoseconds, as a Double.
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}
