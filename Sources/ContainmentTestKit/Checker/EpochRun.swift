import Containment

/// One epoch: a schedule performed on a fresh fixture, checked burst by
/// burst against a second fresh fixture the operations are replayed on;
/// then both torn down and checked for leaks.
struct EpochRun<Fixture: CheckableContainer>: Sendable {
  let checker: ContainerChecker<Fixture>
  let clock: CheckClock
  let interleaving: Interleaving
  /// Seeds the clock's steps.
  let seed: UInt64
  let replayLimit: Int

  func run(_ schedule: ContainerSchedule) async -> EpochOutcome {
    var (outcome, references) = await perform(schedule)
    // The fixtures are released now: everything they held must go.
    let leaked = await Self.survivors(of: references)
    if !leaked.isEmpty, outcome.findings.isEmpty {
      outcome.findings.append(
        CheckFinding(
          .leak,
          "still alive after the window was torn down and the fixture released: \(leaked.joined(separator: ", "))"))
    }
    references.removeAll()
    return outcome
  }

  /// The labels of `references` still alive once whatever was releasing
  /// them had time to finish: a task's resources go shortly after it ends,
  /// and the runtime finishes a released object's link updates in the next
  /// critical section of the link locks, on whichever thread takes one (the
  /// check takes one between its yields: reading a controller's `parent`).
  ///
  /// A few yields almost always suffice; past them the check waits, in 1 ms
  /// steps, up to `releaseGrace`: a leak is what is still alive then.
  private static func survivors(of references: [WeakReference]) async -> [String] {
    let probe = StampController()
    for _ in 0..<100 where references.contains(where: \.isAlive) {
      _ = probe.parent
      await Task.yield()
    }
    let clock = ContinuousClock()
    let deadline = clock.now + releaseGrace
    while references.contains(where: \.isAlive), clock.now < deadline {
      do {
        try await clock.sleep(for: .milliseconds(1))
      } catch {
        break  // Cancelled: report what is alive now.
      }
    }
    return references.filter(\.isAlive).map(\.label)
  }

  /// How long the leak check waits for releases still under way.
  static var releaseGrace: Duration { .seconds(1) }

  private func perform(_ schedule: ContainerSchedule) async -> (EpochOutcome, [WeakReference]) {
    var outcome = EpochOutcome()
    let operations = checker.operationsByName
    if let problem = checker.problem(with: schedule) {
      outcome.findings.append(problem)
      return (outcome, [])
    }
    let live: FixtureSession<Fixture>
    let replayed: FixtureSession<Fixture>
    do {
      live = try await FixtureSession.make(checker.make, clock: clock, seed: seed)
      replayed = try await FixtureSession.make(checker.make, clock: .manual, seed: seed)
    } catch {
      outcome.findings.append(error.finding)
      return (outcome, [])
    }
    if live.shape != replayed.shape {
      outcome.findings.append(
        CheckFinding(
          .setup,
          "two fixtures made by the factory differ before any operation: \(live.shape.differences(from: replayed.shape, naming: live.naming).joined(separator: "; "))"
        ))
    }
    var checks = BurstChecks(controllers: live.controllers, naming: live.naming)
    var track = ReplayTrack(session: replayed, make: checker.make, operations: operations)
    var replays = true
    let executor: SeededTaskExecutor?
    if case .seeded(let seed) = interleaving.kind { executor = SeededTaskExecutor(seed: seed) } else { executor = nil }

    for (index, burst) in schedule.bursts.enumerated() where outcome.findings.isEmpty {
      let start = await live.transactionNow()
      let records = await live.run(
        burst, operations: operations, executor: executor, clockSeed: seed &+ UInt64(index))
      let end = await live.transactionNow()
      let segments = await live.collect()
      outcome.operations += records.count
      outcome.bursts += 1
      let lost = await live.lostEvents
      let findings = checks.check(
        segments, controllers: live.controllers, window: live.fixture.window, start: start, end: end,
        lostEvents: lost)
      outcome.findings += findings.map { Self.locate($0, burst: index, of: schedule) }
      guard outcome.findings.isEmpty, replays else { continue }
      var linearizer = Linearizer<Fixture>(
        records: records,
        observed: segments.map { EventToken.of($0 ?? [], naming: live.naming, canonical: live.naming) },
        shape: live.shape, naming: live.naming, limit: replayLimit, tracesFirstOrder: index % 4 == 0)
      switch await linearizer.explain(on: &track) {
      case .explained:
        break
      case .refuted(let finding):
        outcome.findings.append(Self.locate(finding, burst: index, of: schedule))
      case .inconclusive:
        outcome.inconclusive += 1
        replays = false  // The history is unknown from here on.
      }
    }
    outcome.replayed = track.replayed
    // Taken now, so that every view loaded meanwhile is expected to go too.
    let references = live.references(suffix: "") + track.session.references(suffix: " (in the replay)")
    await live.tearDown()
    await track.session.tearDown()
    return (outcome, references)
  }

  /// `finding`, saying in which burst of how many it showed.
  private static func locate(_ finding: CheckFinding, burst: Int, of schedule: ContainerSchedule) -> CheckFinding {
    CheckFinding(finding.kind, "in burst \(burst + 1) of \(schedule.bursts.count): \(finding.message)")
  }
}
