/// Command-line options of `containment-bench`.
///
/// ```
/// containment-bench [--quick] [--json] [--only GROUP[,GROUP...]] [--filter TEXT] [--reps N]
/// ```
/// - `--quick`: fewer repetitions and smaller workloads (CI smoke run).
/// - `--json`: print the result as JSON instead of the table (the summary
///   line still follows, as the last line).
/// - `--only`: run only the named groups (see ``BenchGroup``); ratios whose
///   inputs were not measured are reported as missing.
/// - `--filter`: run only the figures whose key contains TEXT (for profiling
///   one workload, e.g. under perf); a TEXT ending in `$` must match the
///   whole key.
/// - `--reps`: repetitions per figure (default 7, quick 3).
struct BenchOptions: Sendable {
  var quick = false
  var json = false
  var groups: Set<BenchGroup> = Set(BenchGroup.allCases)
  var repetitions: Int?
  var filter: String?

  /// Repetitions per figure, after one warm-up.
  var reps: Int { repetitions ?? (quick ? 3 : 7) }

  /// Multiplies a full-run iteration count down for `--quick`.
  func iterations(_ full: Int, quick quickCount: Int? = nil) -> Int {
    quick ? (quickCount ?? max(1, full / 5)) : full
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
    var options = BenchOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick": options.quick = true
      case "--json": options.json = true
      case "--only":
        guard let list = remaining.popFirst() else { throw UsageError("--only needs a group list") }
        var groups: Set<BenchGroup> = []
        for name in list.split(separator: ",") {
          guard let group = BenchGroup(rawValue: String(name)) else {
            throw UsageError(
              "unknown group \(name); groups: \(BenchGroup.allCases.map(\.rawValue).joined(separator: ", "))")
          }
          groups.insert(group)
        }
        options.groups = groups
      case "--filter":
        guard let text = remaining.popFirst() else { throw UsageError("--filter needs a text") }
        options.filter = text
      case "--reps":
        guard let value = remaining.popFirst().flatMap({ Int($0) }), value >= 1 else {
          throw UsageError("--reps needs a positive number")
        }
        options.repetitions = value
      case "--help", "-h":
        throw UsageError(nil)
      default:
        throw UsageError("unknown argument \(argument)")
      }
    }
    return options
  }

  static let usage = """
    usage: containment-bench [--quick] [--json] [--only GROUP[,GROUP...]] [--filter TEXT] [--reps N]
    groups: \(BenchGroup.allCases.map(\.rawValue).joined(separator: ", "))
    build with: swift build -c release --product containment-bench
    """
}

/// A bad command line; `message == nil` means `--help`.
struct UsageError: Error {
  let message: String?
  init(_ message: String?) { self.message = message }
}

/// The groups of figures, in the order they run. Memory runs first, on a
/// fresh heap, so that freed memory of other groups cannot hide its growth.
enum BenchGroup: String, CaseIterable, Sendable, Hashable {
  case memory
  case primitives
  case runtime
  case events
  case reference
  case scaling
  case tree

  var title: String {
    switch self {
    case .memory: "Memory"
    case .primitives: "Raw primitives"
    case .runtime: "Runtime operations"
    case .events: "Event delivery"
    case .reference: "Reference design (@MainActor class tree)"
    case .scaling: "Scaling"
    case .tree: "Tree appearance"
    }
  }
}
