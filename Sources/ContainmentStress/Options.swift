import CommandLineOptions

/// A fault the harness can plant in the runtime, to prove it finds real bugs.
enum Fault: String, Sendable, CaseIterable {
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
  /// Containers whose children's hooks are slow, each well within a hook
  /// deadline (SlowChildrenKinds.swift): no container and no child may be
  /// faulted, though a container's call outlasts the deadline on its
  /// children's hooks.
  case slowChildren = "slow-children"
}

/// Which concurrency the workload allows.
enum Profile: String, Sendable, CaseIterable {
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
enum WorkloadKind: String, Sendable, CaseIterable {
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
  /// The supervised trees' teardown policy (`--teardown-graceful`,
  /// `--teardown-abandon`; nil: wait forever).
  var teardownGraceful: Duration?
  var teardownAbandon: Duration?
  var profile = Profile.full
  var workload = WorkloadKind.checked
  /// Hand the heap's free pages back to the system at each epoch (glibc's
  /// `malloc_trim`), so that resident memory shows what the run keeps alive.
  var trim = true
  /// Judge whether throughput falls as the run goes on.
  ///
  /// `--no-throughput-verdict` only reports it: a debug build's rate says
  /// nothing about the release runtime, and a minute of it moves with the
  /// machine more than with the code.
  var judgesThroughput = true
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
      --seed 0xH         seed of the harness's random choices (the setup, each worker's
                         operations, the subscribers), not of how the tasks interleave: a
                         seed does not replay a run. Printed as 0x hex; taken as 0x hex or
                         decimal (default 0x5eedc0de)
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
      --no-throughput-verdict  report throughput without judging whether it falls (a debug
                         build's run, whose rate says nothing about the release runtime)
      --kinds K,K,...    only these operation kinds: add, move, oppositeMoves, remove, install,
                         uninstall, transition, batch, manualAppearance, toggleContainer,
                         nested, misuse, push, pop, popTo, popToRoot, setStack,
                         interactivePop, selectTab, setTabIndex, setTabs, traitFlip, showColumn,
                         selfRemoval, rehome, scope, engine, deepStack, wideContainer, tearDownPart,
                         present, dismiss, interactiveDismiss, presentationRoot, presentMisuse,
                         presentFromChild, awaitIdle, orphan, releasedWindow (default: all;
                         per-leaf leaves out
                         toggleContainer)
      --fault F          plant a fault: skip-queue (the runtime's requests skip the FIFO
                         queue, R1); stuck-hook, leak (self-tests of the watchdog and
                         of the leak check); hung-hook (hooks, loadView, delegates,
                         animations and scope bodies that never return, in a supervised
                         tree: each must time out and be isolated); slow-children
                         (containers whose children's hooks are slow: nobody is faulted)
      --hook-deadline MS the supervised trees' hook deadline with hung-hook and
                         slow-children (default 100; off: none, and with hung-hook the
                         watchdog must name the hung hook, unless a teardown policy is set;
                         slow-children takes off as 100)
      --teardown-graceful MS, --teardown-abandon MS
                         the supervised trees' teardown policy (either sets both; the other
                         defaults to 50). With hung-hook --hook-deadline off, each hang is
                         planted in a tree of its own that is then torn down: the hung call
                         must be abandoned and the teardown must end
      --stall S          watchdog: fail after S seconds without progress (default 10)
      --quiescent-every S  pause the workload every S seconds: check the invariants and
                         the epoch before (default 2; 0: one epoch, memory grows with the run)
      --reduce-seconds S time budget to shrink a failure to a short sequence (default 20, 0 = off)
      --json             print the report as one JSON document on standard output (the
                         summary line goes to standard error)
      --quiet            no progress output (otherwise on standard error; Ctrl-C stops the
                         workload and reports what was recorded)
      --reduce KIND      reduce a finding of this kind (atomicity, grammar, invariant, ...)
      --verbose          show the reducer's trials
      --help, -h         this text
    The report's last line is always: stress: <N> operations, <V> violations, <D> deadlocks, <L> leaks
    Exit status: 0 when V, D and L are all 0; 1 otherwise; 64 on bad usage (nothing runs).
    """

  /// The seed as every output shows it and `--seed` takes it: `0x` and
  /// lowercase hex digits.
  var seedText: String { "0x" + String(seed, radix: 16) }

  /// A seed as `--seed` takes it: `0x` hex (the form the reports print) or
  /// decimal.
  static func seed(_ text: String) -> UInt64? {
    text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
  }
}

extension Options: ToolOptions {
  static let toolName = "containment-stress"

  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
    switch flag {
    case "--seconds": seconds = try arguments.seconds(of: flag)
    case "--operations": operations = try arguments.count(of: flag)
    case "--seed":
      let text = try arguments.value(of: flag, "a seed")
      guard let seed = Self.seed(text) else { throw .badValue(flag, text, "a seed (0x hex or decimal)") }
      self.seed = seed
    case "--tasks": tasks = max(1, try arguments.count(of: flag))
    case "--trees": trees = max(1, try arguments.count(of: flag))
    case "--leaves": leavesPerTree = max(2, try arguments.count(of: flag))
    case "--manual-leaves": manualLeavesPerTree = max(2, try arguments.count(of: flag))
    case "--fault": fault = try arguments.choice(of: flag)
    case "--workload": workload = try arguments.choice(of: flag)
    case "--no-trim": trim = false
    case "--no-throughput-verdict": judgesThroughput = false
    case "--hook-deadline":
      let text = try arguments.value(of: flag, "milliseconds or off")
      if text == "off" {
        hookDeadline = nil
      } else {
        guard let milliseconds = Int(text), milliseconds > 0 else {
          throw .badValue(flag, text, "milliseconds or off")
        }
        hookDeadline = .milliseconds(milliseconds)
      }
    case "--teardown-graceful", "--teardown-abandon":
      let text = try arguments.value(of: flag, "milliseconds")
      guard let milliseconds = Int(text), milliseconds >= 0 else { throw .badValue(flag, text, "milliseconds") }
      if flag == "--teardown-graceful" {
        teardownGraceful = .milliseconds(milliseconds)
      } else {
        teardownAbandon = .milliseconds(milliseconds)
      }
    case "--profile": profile = try arguments.choice(of: flag)
    case "--kinds": kinds = try arguments.choices(of: flag)
    case "--stall": stallSeconds = max(0.5, try arguments.seconds(of: flag))
    case "--quiescent-every": quiescentEvery = try arguments.seconds(of: flag)
    case "--reduce-seconds": reduceSeconds = try arguments.seconds(of: flag)
    case "--json": json = true
    case "--quiet": quiet = true
    case "--verbose": verbose = true
    case "--reduce": reduceCategory = try arguments.value(of: flag, "a kind of finding")
    default: throw .unknownFlag(flag)
    }
  }
}
