import Containment
import ContainmentLocking

/// What happened to one operation.
enum Outcome: Sendable, Hashable {
  case succeeded
  case failed(String)
  case cancelled
}

/// One operation as it ran: for the report, the checks and the reducer.
struct OperationRecord: Sendable {
  var operation: Operation
  var summary: String
  var start: Duration
  var end: Duration
  var outcome: Outcome
  /// True for operations issued from inside a hook (they have no latency of their own).
  var nested = false
}

/// A transaction the harness knows the meaning of: the steps it ran and the operation that asked for it.
struct RegisteredTransaction: Sendable {
  var steps: [ModelStep]
  var operation: Int
  /// For a request that succeeded while its operation held its container's
  /// gate exclusively (`setStack`, `setTabs`): when the gate was entered and
  /// when the request returned.
  ///
  /// No other request on that container ran in between, so an eventless one can
  /// be placed among them by time.
  var window: ClosedRange<Duration>?
  /// For a custom container's scope or engine change: who it touches (its atomicity is checked, ScopeKinds.swift).
  var scope: ScopeMembers?
}

/// A request whose transaction id the harness could not learn (the handle of
/// an interactive pop whose driver threw is never returned): its steps, the
/// controller that must begin its events, and when the operation ran.
///
/// The checks give it the unregistered transaction that fits.
struct UnidentifiedRequest: Sendable {
  var steps: [ModelStep]
  var operation: Int
  var first: Int
  var start: Duration
  var end: Duration
}

/// A `dismiss(animated:)` call from outside any transaction: if what it
/// routed to stopped presenting before it looked (an unrelated removal of
/// the presenter ends its presentation), the call is ignored with a
/// `callIgnored(.nothingToDismiss)` event outside any transaction, which
/// this window explains.
struct DismissCall: Sendable {
  var controller: Int
  var start: Duration
  var end: Duration
}

/// A broken expectation found while the workload runs (an error that should
/// have been thrown and was not, a wrong error, ...).
struct Finding: Sendable, CustomStringConvertible {
  enum Category: String, Sendable, CaseIterable {
    case unexpectedSetup, invariant, grammar, hookLog, linearizability, atomicity, unexplained, expectedError,
      subscriber, deadlock, leak
    /// The run's last epochs ran markedly slower than its first (a cost that grows with the run's length).
    case slowdown
    /// Resident memory grew after the warm-up (something is kept that grows with the run's length).
    case growth
    /// The checks could not finish within the run's time limit.
    case timeLimit

    /// Deadlocks and leaks are counted apart; everything else is a violation.
    var isViolation: Bool { self != .deadlock && self != .leak }
  }
  var category: Category
  var message: String
  /// Operations involved, for the reducer.
  var operations: [Int] = []
  var description: String { "[\(category.rawValue)] \(message)" }
}

/// Shared state of one run: the world, the registry of transactions, the
/// operation log, progress counters.
///
/// All of it lock-protected. What the workload records is taken away at each
/// quiescent point (`closeEpoch`) and checked there, so it holds one epoch at
/// most.
final class Run: Sendable {
  let world: World
  let options: Options
  /// Checks each epoch at the quiescent point after it.
  let checker: EpochChecker
  /// Epochs checked and findings so far, for the progress line.
  let checkProgress: Locked<CheckProgress>
  let transactions = Locked<[TransactionID: RegisteredTransaction]>([:])
  let unidentified = Locked<[UnidentifiedRequest]>([])
  let dismissCalls = Locked<[DismissCall]>([])
  let records = Locked<[OperationRecord]>([])
  let findings = Locked<[Finding]>([])
  fileprivate let counters = Locked<Counters>(Counters())
  /// Operations in flight: id → (summary, start), for the watchdog.
  let inFlight = Locked<[Int: (String, Duration)]>([:])
  /// Leaves named by running operations (per-leaf profile).
  private let claims = Locked<Set<Int>>([])
  /// Handles of requests made from inside hooks: (id, succeeded? — nil while pending).
  let watched = Locked<[(TransactionID, @Sendable () -> Bool?)]>([])

  struct Counters {
    var nextOperation = 0
    var completed = 0
    var progress = 0
  }

  init(world: World, options: Options, subscribers: Subscribers) {
    self.world = world
    self.options = options
    let progress = Locked(CheckProgress())
    checkProgress = progress
    checker = EpochChecker(
      template: History(world: world, initial: Model(nodes: [], ids: [])), recorders: subscribers.recorders,
      others: subscribers.others, progress: progress, trim: options.trim,
      judgesThroughput: options.judgesThroughput)
  }

  func now() -> Duration { world.environment.elapsed() }

  func nextOperationID() -> Int {
    counters.withLock { counters in
      defer { counters.nextOperation += 1 }
      return counters.nextOperation
    }
  }

  var completed: Int { counters.withLock { $0.completed } }
  /// Grows whenever anything finishes: the watchdog's heartbeat.
  var progress: Int { counters.withLock { $0.progress } }
  func tick() { counters.withLock { $0.progress += 1 } }

  func register(
    _ id: TransactionID, _ steps: [ModelStep], operation: Int, window: ClosedRange<Duration>? = nil,
    scope: ScopeMembers? = nil
  ) {
    transactions.withLock {
      $0[id] = RegisteredTransaction(steps: steps, operation: operation, window: window, scope: scope)
    }
  }

  func record(_ record: OperationRecord) {
    records.withLock { $0.append(record) }
    counters.withLock {
      if !record.nested { $0.completed += 1 }
      $0.progress += 1
    }
  }

  func report(_ finding: Finding) {
    findings.withLock { $0.append(finding) }
  }

  func name(_ index: Int) -> String { world[index].node.name }
  func describe(_ operation: Operation) -> String { operation.describe(names: world.controllers.map(\.node.name)) }
}

/// Steps collected inside a transaction, in order.
final class StepLog: Sendable {
  private let steps = Locked<[ModelStep]>([])
  func append(_ step: ModelStep) { steps.withLock { $0.append(step) } }
  var all: [ModelStep] { steps.withLock { $0 } }
}

extension Run {
  /// Remembers a handle whose request may still be queued: its transaction
  /// must show in the events exactly when the request succeeds.
  func watch(_ handle: TransactionHandle<Void>) {
    watched.withLock { $0.append((handle.id, { handle.result.map { if case .success = $0 { true } else { false } } })) }
  }
}

extension Run {
  private func leaves(of operation: Operation) -> Set<Int> {
    let leaves = Set(world.leaves)
    return Set(operation.targets.filter { leaves.contains($0) })
  }

  /// Claims the leaves `operation` names; false (claiming nothing) if one is taken.
  func claim(_ operation: Operation) -> Bool {
    let wanted = leaves(of: operation)
    return claims.withLock { claims in
      guard claims.isDisjoint(with: wanted) else { return false }
      claims.formUnion(wanted)
      return true
    }
  }

  func release(_ operation: Operation) {
    guard options.profile == .perLeaf else { return }
    let held = leaves(of: operation)
    claims.withLock { $0.subtract(held) }
  }
}

extension Run {
  /// What the workload recorded since the last quiescent point.
  struct Recorded: Sendable {
    var transactions: [TransactionID: RegisteredTransaction] = [:]
    var unidentified: [UnidentifiedRequest] = []
    var dismissCalls: [DismissCall] = []
    var records: [OperationRecord] = []
    var findings: [Finding] = []
    /// Requests made from inside hooks, and whether each succeeded (nil: still
    /// pending).
    var watched: [(TransactionID, Bool?)] = []
  }

  /// Takes what was recorded since the last call (call at a quiescent point).
  func takeRecorded() -> Recorded {
    func take<Value>(_ locked: Locked<Value>, _ empty: Value) -> Value {
      locked.withLock { value in
        defer { value = empty }
        return value
      }
    }
    return Recorded(
      transactions: take(transactions, [:]), unidentified: take(unidentified, []),
      dismissCalls: take(dismissCalls, []), records: take(records, []),
      findings: take(findings, []), watched: take(watched, []).map { ($0.0, $0.1()) })
  }

  /// Findings not yet handed to the checker plus those it has: for the progress line and a failed run's summary.
  var findingsSoFar: Int { findings.withLock { $0.count } + checkProgress.withLock { $0.findings } }

  /// The end of an epoch: what was recorded, each controller's hooks since
  /// the last cut, the runtime's trees (`snapshot`, taken at `time`).
  func cut(at time: Duration, replayEnd: Duration, snapshot: Model) -> Cut {
    let hookLogs = world.controllers.map { controller in
      controller.hookLog.withLock { log in
        defer { log = [] }
        return log
      }
    }
    return Cut(
      time: time, replayEnd: replayEnd, snapshot: snapshot, recorded: takeRecorded(), hookLogs: hookLogs,
      wall: .now, cpu: ProcessStatus.cpuTime(), resident: ProcessStatus.memory()?.resident,
      machine: ProcessStatus.machineBusy())
  }

  /// At a quiescent point (the workers paused, the splits drained): ends the
  /// epoch and checks the one before it.
  func closeEpoch() async {
    await awaitWatched()
    let time = now()
    await checker.close(cut(at: time, replayEnd: time, snapshot: Model.snapshot(of: world)))
  }

  /// Waits (up to a second) until every request made from inside a hook has
  /// run: a request queued behind its hook's transaction may still be
  /// pending when the operation that armed the hook has returned, and an
  /// epoch must end between transactions.
  func awaitWatched() async {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(1)
    while clock.now < deadline, watched.withLock({ $0.contains { $0.1() == nil } }) {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}

extension Subscription {
  /// The elements received since the last call.
  func take() -> [LifecycleEvent] {
    received.withLock { received in
      defer { received = [] }
      return received
    }
  }
}
