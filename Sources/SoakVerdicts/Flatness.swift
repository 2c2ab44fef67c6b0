/// Whether a long run stays flat: its resident memory does not grow and its
/// throughput does not fall as it goes on.
///
/// Pure functions over samples taken at the run's epochs (no clock, no process
/// state), shared by `containment-stress`'s checked workload and its `server`
/// workload.
///
/// Both verdicts skip a warm-up (the first 10 % of the run) and compare the
/// run's quarters by their medians, which one odd epoch does not move; each
/// limit is widened where the run is too short or too noisy for it to mean
/// anything, so that a short run on a busy machine does not flake.
public enum Flatness {
  /// One observation: seconds since the run started, and a value (bytes of
  /// resident memory, or operations per second).
  public struct Sample: Sendable, Equatable {
    /// Seconds since the run started.
    public var time: Double
    /// The observed value.
    public var value: Double
    /// The share of the machine (0...1 of all its cores) that other
    /// processes used while this sample was taken: a throughput measured
    /// while they ran says more about them than about the run.
    public var others: Double

    /// A sample at `time` of `value`, taken while others used `others` of the machine.
    public init(time: Double, value: Double, others: Double = 0) {
      self.time = time
      self.value = value
      self.others = others
    }
  }

  /// The limits of both verdicts.
  public struct Limits: Sendable, Equatable {
    /// The part of the run (from its start) left out as warm-up.
    public var warmUp = 0.1
    /// Memory may grow by at most this fraction of its level per hour of run.
    public var growthPerHour = 0.05
    /// Growth between the second and the last quarter below this many bytes
    /// is never a finding: on a run of minutes the per-hour limit is a few
    /// hundred kilobytes, less than one epoch's noise.
    public var growthFloor = 48.0 * 1_048_576
    /// The last quarter's median throughput may be at most this fraction
    /// below the first quarter's.
    public var throughputDrop = 0.05
    /// A drop must also exceed this many standard errors of the difference
    /// of the two medians (estimated from the quarters' own spread).
    public var noiseMargin = 3.0
    /// Fewer samples than this after the warm-up: no verdict.
    public var minimumSamples = 12
    /// Throughput samples taken while other processes used more than this
    /// share of the machine are left out (on a shared machine, the others'
    /// load comes and goes over minutes, and slows even the CPU-time rate:
    /// contended caches, lock holders preempted).
    public var maximumOthers = 0.25
    /// How much a shared machine's own speed can drift over a few minutes
    /// (frequency, neighbours' memory traffic, time stolen by the host),
    /// which neither the quarters' spread nor the others' load shows: a run
    /// shorter than `driftSpan` may drop by up to this much more, in
    /// proportion to how much shorter it is.
    ///
    /// A run of two minutes therefore catches a gross slowdown (a quarter or
    /// more); the 5 % is checked by runs of half an hour or more.
    public var machineDrift = 0.25
    /// Runs at least this long (seconds) get no allowance for the machine's drift.
    public var driftSpan = 1800.0

    /// The default limits.
    public init() {}
  }

  /// The memory verdict of a run.
  public struct Memory: Sendable, Equatable {
    /// Median of the samples in the run's second and last quarter (bytes).
    public var secondQuarter: Double
    /// Median of the samples in the run's last quarter (bytes).
    public var lastQuarter: Double
    /// Growth per hour after the warm-up (the median of the slopes between
    /// pairs of samples, which spikes do not move), in bytes and as a
    /// fraction of the second quarter's median.
    public var slopePerHour: Double
    /// The slope as a fraction of the second quarter's median.
    public var relativePerHour: Double { secondQuarter > 0 ? slopePerHour / secondQuarter : 0 }
    /// The growth from the second to the last quarter that the run may show
    /// (bytes): the per-hour limit over the time between them, at least the floor.
    public var allowed: Double
    /// Both the slope and the quarters say it grows beyond the limit.
    public var grows: Bool
  }

  /// The throughput verdict of a run.
  public struct Throughput: Sendable, Equatable {
    /// Median throughput of the first and of the last quarter of the samples after the warm-up.
    public var firstQuarter: Double
    /// Median of the samples in the run's last quarter.
    public var lastQuarter: Double
    /// The relative change from the first quarter's median to the last's.
    public var change: Double { firstQuarter > 0 ? lastQuarter / firstQuarter - 1 : 0 }
    /// The drop (a fraction of the first quarter's median) beyond which it is a finding:
    /// the limit, or the noise margin if wider.
    public var allowedDrop: Double
    /// Whether the throughput falls beyond the limit.
    public var falls: Bool { -change > allowedDrop }
    /// Samples after the warm-up left out because other processes were busy.
    public var disturbed: Int
  }

  /// The samples after the warm-up (by time: the first `warmUp` of the span the samples cover).
  static func steady(_ samples: [Sample], warmUp: Double) -> ArraySlice<Sample> {
    guard let first = samples.first?.time, let last = samples.last?.time else { return [] }
    let start = first + (last - first) * warmUp
    return samples.drop { $0.time < start }
  }

  /// Does resident memory grow? Nil for a run with too few samples after the warm-up.
  ///
  /// It grows when both (1) the slope after the warm-up, extrapolated to an
  /// hour, exceeds `growthPerHour` of the level, and (2) the last quarter's
  /// median exceeds the second quarter's by more than the per-hour limit
  /// over the time between them, and by more than `growthFloor`.
  public static func memory(_ samples: [Sample], limits: Limits = Limits()) -> Memory? {
    let steady = Array(steady(samples, warmUp: limits.warmUp))
    guard steady.count >= limits.minimumSamples, let first = samples.first?.time, let end = samples.last?.time,
      end > first
    else { return nil }
    let span = end - first
    func quarter(_ index: Int) -> [Sample] {
      let (low, high) = (first + span * Double(index) / 4, first + span * Double(index + 1) / 4)
      return samples.filter { $0.time >= low && (index == 3 ? $0.time <= high : $0.time < high) }
    }
    // The same quarters as `quarterMedians`.
    let (second, last) = (quarter(1), quarter(3))
    guard !second.isEmpty, !last.isEmpty else { return nil }
    let (secondMedian, lastMedian) = (median(second.map(\.value)), median(last.map(\.value)))
    let slope = theilSen(steady) * 3600
    let between = (median(last.map(\.time)) - median(second.map(\.time))) / 3600
    let allowed = max(limits.growthFloor, limits.growthPerHour * secondMedian * between)
    let grows = slope > limits.growthPerHour * secondMedian && lastMedian - secondMedian > allowed
    return Memory(
      secondQuarter: secondMedian, lastQuarter: lastMedian, slopePerHour: slope, allowed: allowed, grows: grows)
  }

  /// Does throughput fall? Nil for a run with too few samples after the warm-up.
  ///
  /// Compares the medians of the first and the last quarter of the samples
  /// after the warm-up. The allowed drop is `throughputDrop`, or
  /// `noiseMargin` standard errors of the difference of the two medians if
  /// that is wider (each median's error estimated from its quarter's median
  /// absolute deviation), and widened on a run shorter than `driftSpan` by
  /// the machine's own drift (`machineDrift`): on a run of two minutes that
  /// allows a drop of about 28 %; on an hour's run, about 5 %.
  /// Samples taken while other processes used more than `maximumOthers` of
  /// the machine are left out; too few left: no verdict.
  public static func throughput(_ samples: [Sample], limits: Limits = Limits()) -> Throughput? {
    let all = steady(samples, warmUp: limits.warmUp)
    let steady = all.filter { $0.others <= limits.maximumOthers }
    guard steady.count >= limits.minimumSamples else { return nil }
    let size = steady.count / 4
    let (first, last) = (steady.prefix(size).map(\.value), steady.suffix(size).map(\.value))
    let (firstMedian, lastMedian) = (median(first), median(last))
    guard firstMedian > 0 else { return nil }
    let error = (standardErrorOfMedian(first).squared + standardErrorOfMedian(last).squared).squareRoot()
    let span = (steady.last?.time ?? 0) - (steady.first?.time ?? 0)
    let drift = limits.machineDrift * max(0, 1 - span / limits.driftSpan)
    let allowed = max(limits.throughputDrop + drift, limits.noiseMargin * error / firstMedian)
    return Throughput(
      firstQuarter: firstMedian, lastQuarter: lastMedian, allowedDrop: allowed, disturbed: all.count - steady.count)
  }

  /// The medians of the samples in each quarter of the run (by time; an
  /// empty quarter gives nil), for reports.
  public static func quarterMedians(_ samples: [Sample]) -> [Double?] {
    guard let first = samples.first?.time, let last = samples.last?.time, last > first else {
      return Array(repeating: samples.first.map(\.value), count: 4)
    }
    return (0..<4).map { index in
      let (low, high) = (first + (last - first) * Double(index) / 4, first + (last - first) * Double(index + 1) / 4)
      let values = samples.filter { $0.time >= low && (index == 3 ? $0.time <= high : $0.time < high) }.map(\.value)
      return values.isEmpty ? nil : median(values)
    }
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The standard error of a sample's median, from its median absolute
  /// deviation (1.4826 × MAD estimates σ; the median's error is 1.2533 σ/√n).
  static func standardErrorOfMedian(_ values: [Double]) -> Double {
    guard values.count > 1 else { return 0 }
    let center = median(values)
    let deviation = median(values.map { abs($0 - center) }) * 1.4826
    return 1.2533 * deviation / Double(values.count).squareRoot()
  }

  /// The Theil–Sen slope (per second): the median of the slopes between
  /// every pair of samples (at most 300 of them, evenly spread).
  static func theilSen(_ samples: [Sample]) -> Double {
    let step = max(1, (samples.count + 299) / 300)
    let points = stride(from: 0, to: samples.count, by: step).map { samples[$0] }
    var slopes: [Double] = []
    slopes.reserveCapacity(points.count * (points.count - 1) / 2)
    for i in points.indices {
      for j in points.indices where j > i && points[j].time > points[i].time {
        slopes.append((points[j].value - points[i].value) / (points[j].time - points[i].time))
      }
    }
    return median(slopes)
  }
}

extension Double {
  fileprivate var squared: Double { self * self }
}
