import Containment
import ContainmentLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// CPU time consumed by the whole process (all threads), to tell a parallel
/// figure's contention (more CPU per operation) from a busy machine (same CPU
/// per operation, less of it available).
struct ProcessCPUTime: Sendable {
  private let start: Double?

  init() { start = Self.now() }

  /// CPU seconds since ``init()``, or nil where the clock is unavailable.
  var elapsed: Double? {
    guard let start, let now = Self.now() else { return nil }
    return now - start
  }

  private static func now() -> Double? {
    var spec = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec) == 0 else { return nil }
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

/// Collects one CPU-time-per-operation value per repetition of a parallel
/// figure, for its note.
final class CPUTimeSamples: Sendable {
  private let values = Locked<[Double]>([])

  func record(seconds: Double?, operations: Int) {
    guard let seconds else { return }
    values.withLock { $0.append(seconds * 1e9 / Double(operations)) }
  }

  /// "CPU 9.1 µs/op", from the median of the recorded values (warm-up excluded).
  func note(dropFirst: Bool = true) -> String {
    let all = values.withLock { $0 }
    let kept = dropFirst ? Array(all.dropFirst()) : all
    guard !kept.isEmpty else { return "" }
    return "CPU \(NumberFormatting.readable(kept.median, unit: .nanosecondsPerOperation))/op"
  }
}
