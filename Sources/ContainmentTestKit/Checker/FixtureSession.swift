import Containment

/// One fixture made by a checker's factory, with what the checker needs
/// around it: its clock, a recorder on every watched controller, and the
/// names that link it to another fixture of the same checker.
final class FixtureSession<Fixture: CheckableContainer>: Sendable {
  let fixture: Fixture
  let controllers: [any ViewController]
  let naming: ControllerNaming
  /// Nil on the continuous clock.
  let clock: ManualClock?
  private let recorder: EventRecorder
  private let stamp = StampController()

  private init(fixture: Fixture, clock: ManualClock?) {
    self.fixture = fixture
    self.clock = clock
    controllers = fixture.controllers
    naming = ControllerNaming(controllers)
    recorder = EventRecorder(controllers)
  }

  /// A fresh fixture from `make`, idle, with its recorders subscribed (they
  /// record from here on); or the setup finding if the factory threw.
  static func make(
    _ make: @Sendable (ContainmentEnvironment) async throws -> Fixture, clock kind: CheckClock, seed: UInt64
  ) async throws(SetupFailure) -> FixtureSession {
    let clock = kind.kind == .manual ? ManualClock() : nil
    let environment =
      clock.map { ContainmentEnvironment(clock: $0) } ?? ContainmentEnvironment(clock: ContinuousClock())
    let made = await ClockDriver.run(clock, seed: seed) { () -> Result<Fixture, SetupFailure> in
      do {
        let fixture = try await make(environment)
        await quiesce(fixture)
        return .success(fixture)
      } catch {
        return .failure(SetupFailure(finding: CheckFinding(.setup, "the factory threw \(error)")))
      }
    }
    return FixtureSession(fixture: try made.get(), clock: clock)
  }

  // MARK: Running

  /// Returns once no transaction runs or waits on the window's tree or on any
  /// watched controller (requests queued from hooks included).
  func quiesce() async { await Self.quiesce(fixture) }

  private static func quiesce(_ fixture: Fixture) async {
    for root in FixtureRoots.of(window: fixture.window, controllers: fixture.controllers) {
      do {
        try await root.waitUntil(.idle)
      } catch {
        return  // Cancelled: the caller is going away.
      }
    }
  }

  /// Performs `operation`'s body on this fixture and says how it went.
  func invoke(_ operation: ContainerOperation<Fixture>, animated: Bool) async -> OperationOutcome {
    do {
      try await operation.body(fixture, animated)
      return .returned
    } catch {
      return .threw(naming.normalize(String(describing: error)))
    }
  }

  /// Runs `burst`: one task per lane, each performing its operations in
  /// order, all lanes at once (on `executor` if given, the global one
  /// otherwise), the manual clock driven meanwhile; then waits until the tree
  /// is idle.
  ///
  /// Returns every operation's record.
  func run(
    _ burst: ScheduledBurst, operations: [String: ContainerOperation<Fixture>], executor: (any TaskExecutor)?,
    clockSeed: UInt64
  ) async -> [OperationRecord] {
    await withTaskExecutorPreference(executor) {
      await ClockDriver.run(clock, seed: clockSeed) {
        let records = await withTaskGroup(of: [OperationRecord].self) { group in
          for (lane, scheduled) in burst.lanes.enumerated() {
            group.addTask {
              var records: [OperationRecord] = []
              for operation in scheduled {
                records.append(await self.perform(operation, lane: lane, operations: operations))
              }
              return records
            }
          }
          var all: [OperationRecord] = []
          for await records in group { all += records }
          return all
        }
        await self.quiesce()
        return records
      }
    }
  }

  /// One scheduled operation, cancelled as scheduled.
  private func perform(
    _ scheduled: ScheduledOperation, lane: Int, operations: [String: ContainerOperation<Fixture>]
  ) async -> OperationRecord {
    guard let operation = operations[scheduled.name] else { preconditionFailure("no operation \(scheduled.name)") }
    let start = RealTimeStamp.next()
    var outcome = OperationOutcome.returned
    var wasCancelled = false
    if let yields = scheduled.cancelledAfter {
      (outcome, wasCancelled) = await withTaskGroup(of: OperationOutcome?.self) { group in
        group.addTask { await self.invoke(operation, animated: scheduled.animated) }
        group.addTask {
          for _ in 0..<yields { await Task.yield() }
          return nil
        }
        var first: OperationOutcome?? = await group.next()
        group.cancelAll()
        if case .some(.some(let outcome)) = first { return (outcome, false) }
        first = await group.next()
        guard case .some(.some(let outcome)) = first else { return (.returned, true) }
        return (outcome, true)
      }
    } else {
      outcome = await invoke(operation, animated: scheduled.animated)
    }
    return OperationRecord(
      scheduled: scheduled, lane: lane, start: start, end: RealTimeStamp.next(), outcome: outcome,
      wasCancelled: wasCancelled)
  }

  /// A transaction id later than every one created so far (see ``StampController``).
  func transactionNow() async -> TransactionID? { await stamp.now() }

  // MARK: Observing

  /// At a quiescent point: each watched controller's events since the last
  /// call, or nil for one that is half way through an appearance transition
  /// (no sentinel can be sent to it without finishing that transition).
  func collect() async -> [[LifecycleEvent]?] {
    var settled: [Bool] = []
    for controller in controllers {
      let state = controller.appearanceState
      let atRest = state == .appeared || state == .disappeared
      if atRest { await controller.endAppearanceTransition() }
      settled.append(atRest)
    }
    return await recorder.segments(settled)
  }

  /// Events the recorder was told it lost (never expected).
  var lostEvents: Int { get async { await recorder.lost } }

  /// The tree now.
  var shape: TreeShape { TreeShape(window: fixture.window, controllers: controllers, naming: naming) }

  // MARK: Ending

  /// Weak references to the window, every watched controller and its view,
  /// labelled with their names followed by `suffix`.
  func references(suffix: String) -> [WeakReference] {
    var references = [WeakReference(fixture.window, label: "the window\(suffix)")]
    for (index, controller) in controllers.enumerated() {
      references.append(WeakReference(controller, label: naming.names[index] + suffix))
      if let view = controller.viewIfLoaded {
        references.append(WeakReference(view, label: "the view of \(naming.names[index])\(suffix)"))
      }
    }
    return references
  }

  /// Tears the window down (V3) and ends the recorder's subscriptions.
  func tearDown() async {
    await ClockDriver.run(clock, seed: 0) {
      do {
        try await self.fixture.window.tearDown()
      } catch {
        // Only a window the operations tore down already throws: nothing is left to do.
      }
    }
    await recorder.stop()
  }
}
