import Containment

/// Stress-checks a custom container against the package's contract, with no
/// model to write: you describe how to make the container and what a user
/// can do to it; the checker does those things concurrently, at random,
/// animated or not, cancelling some, and proves what happened.
///
/// ```swift
/// let checker = ContainerChecker<TabsFixture>(
///   "MyTabs", reference: "TabsFixture.checker",
///   operations: [
///     ContainerOperation("tap first") { fixture, animated in try await fixture.tabs.tap(0, animated: animated) },
///     ContainerOperation("tap second") { fixture, animated in try await fixture.tabs.tap(1, animated: animated) },
///   ]
/// ) { environment in
///   try await TabsFixture(environment: environment)
/// }
///
/// @Test func tabsHoldTheContract() async {
///   let report = await checker.run(CheckConfiguration(length: .operations(2_000)))
///   #expect(report.passed, "\(report)")
/// }
/// ```
///
/// At each quiescent point (after each burst of concurrent operations) it checks:
/// - the invariants of §2 (`checkInvariants(quiescent:)`);
/// - every watched controller's hook sequence (C1–C5, A1–A3): one
///   `viewDidLoad`, `willMove`/`didMove` paired, no did-hook without its
///   will-hook, `viewIsAppearing` once per appearance, nothing left half way;
/// - transactions (R1, E3): every hook and container event carries a
///   transaction created during the burst, and no two transactions
///   interleave on a controller;
/// - linearizability (R4): the burst's operations, replayed one at a time
///   on a second fresh container in some order consistent with real time,
///   give every controller the same events, every operation the same result
///   and the container the same tree. The runtime itself, run sequentially,
///   is the model. The search is bounded (``CheckConfiguration/replayLimit``);
///   bursts are small (a few tasks, a few operations each) so that it stays cheap.
///
/// and after each epoch, that the torn-down window, the controllers and
/// their views are all released.
///
/// On a failure, ``run(_:)`` reduces the epoch's schedule (fewer bursts,
/// tasks and operations, no animation, no cancellation) while it still fails
/// on a seeded interleaving, and writes a Swift Testing test that runs the
/// reduced schedule with ``check(_:interleaving:)``
/// (``ContainerCheckReport/reproduction``).
///
/// Isolation: a value type; its methods run on the caller's executor, the
/// operations on the global one (or on the seeded one, see ``Interleaving``).
public struct ContainerChecker<Fixture: CheckableContainer>: Sendable {
  /// The container's name, in reports and generated test names.
  public let name: String
  /// The Swift expression that evaluates to this checker in your test
  /// target, used by generated tests.
  public let reference: String
  /// What a user can do to the container.
  public let operations: [ContainerOperation<Fixture>]
  /// Makes a fresh fixture whose window uses the given environment.
  let make: @Sendable (ContainmentEnvironment) async throws -> Fixture

  /// A checker for the container `make` builds.
  ///
  /// - Parameters:
  ///   - name: The container's name, in reports and generated test names.
  ///   - reference: The expression a test writes to reach this checker
  ///     (`"MyTabsChecks.checker"`); generated tests use it. The default is
  ///     the placeholder `<#checker#>`.
  ///   - operations: What a user can do to the container; distinct names.
  ///   - make: Builds a fresh fixture: the container, its children, and a
  ///     `Window` made with the given environment (its clock is the
  ///     check's), showing the container. Called at least twice per epoch;
  ///     it must build the same tree every time.
  public init(
    _ name: String, reference: String? = nil, operations: [ContainerOperation<Fixture>],
    make: @escaping @Sendable (ContainmentEnvironment) async throws -> Fixture
  ) {
    self.name = name
    self.reference = reference ?? "<#checker#>"
    self.operations = operations
    self.make = make
  }

  /// A run keeps this many findings (the first ones).
  static var keptFindings: Int { 20 }

  var operationsByName: [String: ContainerOperation<Fixture>] {
    Dictionary(operations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// A setup finding if the operations or `schedule` cannot be run.
  func problem(with schedule: ContainerSchedule) -> CheckFinding? {
    let names = operations.map(\.name)
    if names.isEmpty { return CheckFinding(.setup, "the checker has no operations") }
    if Set(names).count != names.count { return CheckFinding(.setup, "two operations share a name: \(names)") }
    let unknown = Set(schedule.bursts.flatMap { $0.lanes.flatMap { $0.map(\.name) } }).subtracting(names)
    if !unknown.isEmpty { return CheckFinding(.setup, "the schedule names unknown operations: \(unknown.sorted())") }
    return nil
  }

  /// Runs `schedule` once on fresh fixtures, with the same checks as a run,
  /// on a manual clock, and returns what it finds: what a generated test
  /// calls.
  ///
  /// Deterministic with ``Interleaving/seeded(_:)`` as far as the operations
  /// are (see ``Interleaving``).
  ///
  /// Runs the operations on the global executor or on a thread of its own
  /// (seeded); returns once both fixtures are torn down and released.
  public func check(_ schedule: ContainerSchedule, interleaving: Interleaving = .seeded(0)) async -> [CheckFinding] {
    let seed: UInt64
    if case .seeded(let value) = interleaving.kind { seed = value } else { seed = 0 }
    let epoch = EpochRun(
      checker: self, clock: .manual, interleaving: interleaving, seed: seed,
      replayLimit: CheckConfiguration().replayLimit)
    return await epoch.run(schedule).findings
  }

  /// Runs random schedules epoch after epoch, as `configuration` says, checks
  /// each burst, and on a failure reduces it (see the type's documentation).
  ///
  /// Runs ``CheckConfiguration/epochsAtOnce`` epochs at a time, each on
  /// fixtures of its own (independent trees share nothing: R5); the
  /// schedules are drawn in order from the seed whatever order the epochs
  /// end in. Awaits the whole run; cancelling the calling task ends it once
  /// the running epochs end.
  public func run(_ configuration: CheckConfiguration = CheckConfiguration()) async -> ContainerCheckReport {
    let clock = ContinuousClock()
    let started = clock.now
    var total = EpochOutcome()
    var epochs = 0
    var failing: (schedule: ContainerSchedule, finding: CheckFinding)?
    if let problem = problem(with: ContainerSchedule([])) { total.findings.append(problem) }
    var plan = EpochPlan(checker: self, configuration: configuration)
    await withTaskGroup(of: (ContainerSchedule, EpochOutcome).self) { group in
      var running = 0
      var stopping = !total.findings.isEmpty
      func launch() {
        guard !stopping, !Task.isCancelled, let (schedule, epoch) = plan.next(elapsed: clock.now - started) else {
          return
        }
        running += 1
        group.addTask { (schedule, await epoch.run(schedule)) }
      }
      for _ in 0..<max(1, configuration.epochsAtOnce) { launch() }
      while running > 0, let (schedule, outcome) = await group.next() {
        running -= 1
        epochs += 1
        total.operations += outcome.operations
        total.bursts += outcome.bursts
        total.replayed += outcome.replayed
        total.inconclusive += outcome.inconclusive
        total.findings += outcome.findings.prefix(max(0, Self.keptFindings - total.findings.count))
        if let first = outcome.findings.min(by: { $0.kind < $1.kind }), failing == nil {
          // The bursts after the one that failed never ran.
          failing = (ContainerSchedule(Array(schedule.bursts.prefix(outcome.bursts))), first)
          stopping = configuration.stopsAtFirstFailure
        }
        launch()
      }
    }
    let elapsed = clock.now - started
    var reproduction: Reproduction?
    if let failing, configuration.reducesFailures {
      var reducer = Reducer(checker: self, configuration: configuration)
      reproduction = await reducer.reduce(failing.schedule, finding: failing.finding)
    }
    return ContainerCheckReport(
      container: name, seed: configuration.seed, operations: total.operations, epochs: epochs, bursts: total.bursts,
      replayedOperations: total.replayed, inconclusiveBursts: total.inconclusive, elapsed: elapsed,
      findings: total.findings, failingSchedule: failing?.schedule, reproduction: reproduction)
  }
}
