import CommandLineOptions

/// Command-line options of `containment-bench` (the flags: ``usage``).
///
/// `--only` runs only the named groups (see ``BenchGroup``): ratios whose
/// inputs were not measured are reported as missing. `--filter` is for
/// profiling one workload (e.g. under perf).
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

  static let usage = """
    usage: containment-bench [--quick] [--json] [--only GROUP[,GROUP...]] [--filter TEXT] [--reps N]
      --quick          fewer repetitions and smaller workloads (CI smoke run)
      --json           the result as JSON instead of the table (the summary line follows)
      --only G,G       only these groups: \(BenchGroup.allCases.map(\.rawValue).joined(separator: ", "))
      --filter TEXT    only the figures whose key contains TEXT (a trailing $: the whole key)
      --reps N         repetitions per figure (default 7, quick 3)
      --help, -h       this text
    build with: swift build -c release --product containment-bench
    Exit status: 0, or 1 if a workload's own check failed; 64 on bad usage (nothing runs).
    """
}

extension BenchOptions: ToolOptions {
  static let toolName = "containment-bench"

  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
    switch flag {
    case "--quick": quick = true
    case "--json": json = true
    case "--only": groups = try arguments.choices(of: flag)
    case "--filter": filter = try arguments.value(of: flag, "a text")
    case "--reps": repetitions = try arguments.count(of: flag, atLeast: 1)
    default: throw .unknownFlag(flag)
    }
  }
}

/// The groups of figures, in the order they run.
///
/// Memory runs first, on a fresh heap, so that freed memory of other groups
/// cannot hide its growth.
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
