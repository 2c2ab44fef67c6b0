#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fault the harness can plant in the runtime, to prove it finds real bugs.
enum Fault: String, Sendable {
  /// `FaultInjection.skipsQueue`: requests skip their container's FIFO queue (breaks R1).
  case skipQueue = "skip-queue"
  /// Harness self-test: one leaf's `willMove` hook never returns (the watchdog must report a deadlock).
  case stuckHook = "stuck-hook"
  /// Harness self-test: the harness keeps one controller alive after the run (the leak check must report it).
  case leak
  /// Hooks that hang in a supervised tree (SupervisionKinds.swift): with a hook
  /// deadline each must fault its controller and see it isolated while the
  /// run goes on; without one (`--hook-deadline off`) the watchdog must name it.
  case hungHook = "hung-hook"
}

/// Which concurrency the workload allows.
enum Profile: String, Sendable {
  /// Everything: operations on the same leaf overlap, ancestors change the
  /// appearance of subtrees whose containers are busy.
  case full
  /// Operations that name the same leaf never overlap, and no ancestor
  /// transaction runs over a busy container. Containers still take
  /// concurrent requests (FIFO, cancellation, nesting, opposite moves).
  /// Avoids the two runtime races the full profile finds (see README).
  case perLeaf = "per-leaf"
}

/// What the run drives.
enum WorkloadKind: String, Sendable {
  /// The checked workload: every operation kind, every check (the default).
  case checked
  /// The runtime alone, shaped like a server, with only its memory and
  /// throughput watched (ServerWorkload.swift).
  case server
}

/// Command-line options of `containment-stress`.
struct Options: Sendable {
  var seed: UInt64 = 0x5EED_C0DE
  var tasks = 16
  var trees = 4
  var leavesPerTree = 5
  var manualLeavesPerTree = 3
  /// Run length, unless `operations` is set.
  var seconds: Double = 30
  /// Stop after this many operations instead of after `seconds`.
  var operations: Int?
  var json = false
  var fault: Fault?
  /// The supervised tree's hook deadline (`--fault hung-hook`); nil: none.
  var hookDeadline: Duration? = .milliseconds(100)
  var profile = Profile.full
  var workload = WorkloadKind.checked
  /// Hand the heap's free pages back to the system at each epoch (glibc's
  /// `malloc_trim`), so that resident memory shows what the run keeps alive.
  var trim = true
  /// The operation kinds to use (nil: the profile's default mix).
  var kinds: Set<OperationKindName>?
  /// The watchdog fails the run after this long without progress.
  var stallSeconds: Double = 10
  /// How often the workers pause for a quiescent point: the invariants are
  /// checked there, and the epoch before it.
  var quiescentEvery: Double = 2
  /// Time budget for reducing a failure to a short operation sequence (0: off).
  var reduceSeconds: Double = 20
  var quiet = false
  var verbose = false
  /// Which kind of finding to reduce (default: the most telling one found).
  var reduceCategory: String?

  static let usage = """
    usage: containment-stress [options]
      --seconds S        run for S seconds (default 30); the run, checks included, ends
                         within S + 10 % + 5 s or fails (soak: --seconds 3600)
      --operations N     run N operations instead of a fixed time (no time limit)
      --seed N           seed of every random choice (decimal or 0x hex; default 0x5eedc0de)
      --tasks N          concurrent worker tasks (default 16)
      --trees N          independent trees, each in its own window (default 4)
      --leaves N         auto-forwarded leaf controllers per tree (default 5)
      --manual-leaves N  manually forwarded leaf controllers per tree (default 3)
      --profile P        full (default) or per-leaf: operations naming the same leaf never
                         overlap and ancestors never toggle a busy subtree
      --workload W       checked (default) or server: the runtime alone, many trees built,
                         shown, driven and let go over and over, with only resident memory
                         and throughput sampled; ends with a verdict (flat or not)
      --no-trim          leave freed memory to the allocator (by default each epoch hands
                         the heap's free pages back, so RSS shows what the run keeps alive)
      --kinds K,K,...    only these operation kinds: add, move, oppositeMoves, remove, install,
                         uninstall, transition, batch, manualAppearance, toggleContainer,
                         nested, misuse, push, pop, popTo, popToRoot, setStack,
                         interactivePop, selectTab, setTabIndex, setTabs, traitFlip, showColumn,
                         selfRemoval, rehome, scope, engine, deepStack, wideContainer,
                         present, dismiss, interactiveDismiss, presentationRoot, presentMisuse,
                         presentFromChild, awaitIdle, orphan, releasedWindow (default: all;
                         per-leaf leaves out
                         toggleContainer)
      --fault F          plant a fault: skip-queue (the runtime's requests skip the FIFO
                         queue, R1); stuck-hook, leak (self-tests of the watchdog and
                         of the leak check); hung-hook (hooks that never return, in a
                         supervised tree: each must time out and be isolated)
      --hook-deadline MS the supervised tree's hook deadline with hung-hook (default 100;
                         off: none, and the watchdog must name the hung hook)
      --stall S          watchdog: fail after S seconds without progress (default 10)
      --quiescent-every S  pause the workload every S seconds: check the invariants and
                         the epoch before (default 2; 0: one epoch, memory grows with the run)
      --reduce-seconds S time budget to shrink a failure to a short sequence (default 20, 0 = off)
      --json             print the report as JSON (the last line stays the summary line)
      --quiet            no progress output (otherwise on standard error; Ctrl-C stops the
                         workload and reports what was recorded)
      --reduce KIND      reduce a finding of this kind (atomicity, grammar, invariant, ...)
      --verbose          show the reducer's trials
      --help             this text
    The last line is always: stress: <N> operations, <V> violations, <D> deadlocks, <L> leaks
    Exit status: 0 when V, D and L are all 0; 1 otherwise; 64 on bad usage.
    """

  static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
    var options = Options()
    var iterator = arguments.makeIterator()
    func value(_ flag: String) throws(UsageError) -> String {
      guard let value = iterator.next() else { throw UsageError(message: "\(flag) needs a value") }
      return value
    }
    func integer(_ flag: String) throws(UsageError) -> Int {
      let text = try value(flag)
      guard let number = Int(text), number >= 0 else { throw UsageError(message: "\(flag): not a count: \(text)") }
      return number
    }
    func seconds(_ flag: String) throws(UsageError) -> Double {
      let text = try value(flag)
      guard let number = Double(text), number >= 0 else {
        throw UsageError(message: "\(flag): not a duration: \(text)")
      }
      return number
    }
    do throws(UsageError) {
      while let argument = iterator.next() {
        switch argument {
        case "--seconds": options.seconds = try seconds(argument)
        case "--operations": options.operations = try integer(argument)
        case "--seed":
          let text = try value(argument)
          let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
          guard let seed = parsed else { throw UsageError(message: "--seed: not a number: \(text)") }
          options.seed = seed
        case "--tasks": options.tasks = max(1, try integer(argument))
        case "--trees": options.trees = max(1, try integer(argument))
        case "--leaves": options.leavesPerTree = max(2, try integer(argument))
        case "--manual-leaves": options.manualLeavesPerTree = max(2, try integer(argument))
        case "--fault":
          let text = try value(argument)
          guard let fault = Fault(rawValue: text) else { throw UsageError(message: "--fault: unknown fault \(text)") }
          options.fault = fault
        case "--hook-deadline":
          let text = try value(argument)
          if text == "off" {
            options.hookDeadline = nil
          } else {
            guard let milliseconds = Int(text), milliseconds > 0 else {
              throw UsageError(message: "--hook-deadline: milliseconds or off, not \(text)")
            }
            options.hookDeadline = .milliseconds(milliseconds)
          }
        case "--profile":
          let text = try value(argument)
          guard let profile = Profile(rawValue: text) else {
            throw UsageError(message: "--profile: unknown profile \(text)")
          }
          options.profile = profile
        case "--workload":
          let text = try value(argument)
          guard let workload = WorkloadKind(rawValue: text) else {
            throw UsageError(message: "--workload: unknown workload \(text)")
          }
          options.workload = workload
        case "--no-trim": options.trim = false
        case "--kinds":
          let text = try value(argument)
          var kinds: Set<OperationKindName> = []
          for name in text.split(separator: ",") {
            guard let kind = OperationKindName(rawValue: String(name)) else {
              throw UsageError(message: "--kinds: unknown kind \(name)")
            }
            kinds.insert(kind)
          }
          options.kinds = kinds
        case "--stall": options.stallSeconds = max(0.5, try seconds(argument))
        case "--quiescent-every": options.quiescentEvery = try seconds(argument)
        case "--reduce-seconds": options.reduceSeconds = try seconds(argument)
        case "--json": options.json = true
        case "--quiet": options.quiet = true
        case "--verbose": options.verbose = true
        case "--reduce": options.reduceCategory = try value(argument)
        case "--help", "-h": throw UsageError(message: "", isHelp: true)
        default: throw UsageError(message: "unknown argument \(argument)")
        }
      }
    } catch {
      return .failure(error)
    }
    return .success(options)
  }
}

struct UsageError: Error {
  var message: String
  var isHelp = false
}

/// Standard error and terminal helpers (no Foundation).
enum Terminal {
  static var stdoutIsTerminal: Bool { isatty(1) != 0 }
  static var stderrIsTerminal: Bool { isatty(2) != 0 }

  static func error(_ text: String) {
    var line = text
    line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
  }

  static func flush() { fflush(nil) }
}
