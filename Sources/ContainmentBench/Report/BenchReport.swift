/// Everything one run measured: the figures, the targets evaluated on them,
/// the checks that failed, and how busy the machine was.
struct BenchReport: Sendable {
  let options: BenchOptions
  let machine: MachineState
  let machineAfter: MachineState
  let figures: [Figure]
  let failures: [String]
  let seconds: Double

  var figuresByKey: [String: Figure] {
    Dictionary(figures.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
  }

  var outcomes: [Target.Outcome] {
    let byKey = figuresByKey
    return Target.all.map { $0.evaluate(byKey) }
  }

  /// The machine-readable last line:
  /// `bench: pushpop=<x>x-actor-call mainactor-batch=<x>x events=<x>x-asyncstream mainactor-server=<x>x
  /// scaling=<x>x contention=<c> mem=<bytes>B/controller tree=<seconds> depth=<x>x siblings=<x>x
  /// hook=<x>x idle=<x>x present-depth=<x>x`
  /// (one line), "n/a" for a value whose figures were not measured.
  var summaryLine: String {
    let values = Dictionary(outcomes.map { ($0.target.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    func value(_ key: String, _ decimals: Int = 2) -> String {
      guard let value = values[key] ?? nil, value.isFinite else { return "n/a" }
      return NumberFormatting.fixed(value, decimals)
    }
    return "bench: pushpop=\(value("pushpop"))x-actor-call mainactor-batch=\(value("mainactor-batch"))x "
      + "events=\(value("events"))x-asyncstream mainactor-server=\(value("mainactor-server"))x "
      + "scaling=\(value("scaling"))x contention=\(value("contention")) mem=\(value("mem", 0))B/controller "
      + "tree=\(value("tree", 3)) depth=\(value("depth"))x siblings=\(value("siblings"))x "
      + "hook=\(value("hook"))x idle=\(value("idle"))x present-depth=\(value("present-depth"))x"
  }
}

/// Cores and load average, recorded before and after the run: how noisy the
/// figures may be.
struct MachineState: Sendable {
  let cores: Int
  /// 1, 5 and 15 minute load averages, if known.
  let load: [Double]

  var description: String {
    let loads = load.map { NumberFormatting.fixed($0, 2) }.joined(separator: " ")
    return "\(cores) cores, load \(loads.isEmpty ? "unknown" : loads)"
  }
}
