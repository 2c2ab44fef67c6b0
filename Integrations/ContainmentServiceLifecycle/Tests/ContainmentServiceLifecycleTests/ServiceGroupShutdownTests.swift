import Containment
import ContainmentServiceLifecycle
import ContainmentTestKit
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

/// V5 through swift-service-lifecycle: a `ContainmentService` in a real
/// `ServiceGroup` is shown when the group runs and torn down as V3 says when
/// the group shuts down gracefully or is cancelled.
@Suite(.timeLimit(.minutes(1)))
struct ServiceGroupShutdownTests {
  /// Runs `service` alone in a service group, in a task, until its tree is ready.
  private func start(_ service: ContainmentService) async throws -> (ServiceGroup, Task<Void, any Error>) {
    let group = ServiceGroup(services: [service], logger: .silent)
    let running = Task { try await group.run() }
    try await service.ready()
    return (group, running)
  }

  @Test func aGracefulShutdownOfTheGroupTearsTheTreeDownInOrder_V5() async throws {
    let tree = try await RecordedTree()
    let window = Window()
    let service = ContainmentService(window: window, root: tree.r)
    let (group, running) = try await start(service)
    tree.log.append("ready")
    await group.triggerGracefulShutdown()
    try await running.value
    #expect(tree.log.take() == RecordedTree.shown + ["ready"] + RecordedTree.offScreen + RecordedTree.stopped)
    #expect(tree.tornDown == ["R", "A", "B", "B1"] && window.rootViewController == nil)
  }

  @Test func cancellingTheGroupTearsTheTreeDownInOrder_V5() async throws {
    let tree = try await RecordedTree()
    let recorder = LogRecorder()
    let service = ContainmentService(window: Window(), root: tree.r, logger: recorder.logger)
    let (_, running) = try await start(service)
    tree.log.append("ready")
    running.cancel()
    try await running.value
    #expect(tree.log.take() == RecordedTree.shown + ["ready"] + RecordedTree.offScreen + RecordedTree.stopped)
    #expect(tree.tornDown == ["R", "A", "B", "B1"])
    // The cancellation does not cut the log short: the teardown's events are in it.
    #expect(
      recorder.lines.suffix(5) == [
        "debug R/B/B1 viewDidTearDown", "debug R/B viewDidTearDown", "debug R/A viewDidTearDown",
        "debug R viewDidTearDown", "debug R terminated",
      ])
  }

  @Test func aStopHookPastTheGracefulDeadlineIsCancelledAndTheTeardownGoesOn_V3() async throws {
    let tree = try await RecordedTree()
    let clock = ManualClock()
    let policy = TeardownPolicy(graceful: .seconds(5), abandonAfter: .seconds(1))
    let window = Window(environment: ContainmentEnvironment(clock: clock, teardown: policy))
    let gate = Gate()
    await tree.b1.setOnHook { [log = tree.log] hook in
      guard hook == "viewDidTearDown" else { return }
      // A hook that stops when its task is cancelled.
      await withTaskCancellationHandler {
        await gate.wait()
      } onCancel: {
        gate.open()
      }
      log.append("B1.cancelled(\(Task.isCancelled))")
    }
    let service = ContainmentService(window: window, root: tree.r)
    let (group, running) = try await start(service)
    await group.triggerGracefulShutdown()
    await gate.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)  // The graceful deadline.
    clock.advance(by: .seconds(5))
    try await running.value
    // The hooks after the cancelled one still run (in the cancelled task).
    #expect(
      tree.log.take()
        == RecordedTree.shown + RecordedTree.offScreen + [
          "B1.viewDidTearDown", "B1.cancelled(true)", "B.viewDidTearDown", "A.viewDidTearDown", "R.viewDidTearDown",
        ])
    #expect(tree.tornDown == ["R", "A", "B", "B1"])
  }

  @Test func aStopHookPastBothDeadlinesIsAbandonedAndTheStreamsEnd_V3() async throws {
    let tree = try await RecordedTree()
    let clock = ManualClock()
    let policy = TeardownPolicy(graceful: .seconds(5), abandonAfter: .seconds(1))
    let window = Window(environment: ContainmentEnvironment(clock: clock, teardown: policy))
    let gate = Gate()
    // A hook that ignores cancellation: only the gate ends it.
    await tree.b1.setOnHook { hook in if hook == "viewDidTearDown" { await gate.wait() } }
    let service = ContainmentService(window: window, root: tree.r)
    let (group, running) = try await start(service)
    await group.triggerGracefulShutdown()
    await gate.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)  // The graceful deadline.
    clock.advance(by: .seconds(5))
    await clock.sleepers(atLeast: 1)  // The abandon deadline.
    clock.advance(by: .seconds(1))
    try await running.value
    // Abandoned: the hooks not yet called are not called; every stream ended.
    #expect(tree.log.take() == RecordedTree.shown + RecordedTree.offScreen + ["B1.viewDidTearDown"])
    for controller in tree.all { try await controller.waitUntil(.tornDown) }
    gate.open()
  }

  @Test func readyThrowsWhenTheRunFailsBeforeTheTreeIsShown_readiness() async throws {
    let tree = try await RecordedTree()
    // B is R's child: a window cannot show it as its root.
    let service = ContainmentService(window: Window(), root: tree.b)
    let readiness = Task { try await service.ready() }
    await #expect(throws: ContainmentError.hasParent(tree.b.node.id)) { try await service.run() }
    await #expect(throws: ContainmentServiceError.stopped) { try await readiness.value }
    #expect(tree.log.take() == [])
  }

  @Test func readyThrowsWhenTheServiceStopsBeforeItStarts_readiness() async throws {
    let tree = try await RecordedTree()
    let service = ContainmentService(window: Window(), root: tree.r)
    let readiness = Task { try await service.ready() }
    service.shutdownGracefully()
    await #expect(throws: ContainmentServiceError.stopped) { try await readiness.value }
  }

  @Test func aServiceWithALoggerStoppedBeforeItRunsReturns() async throws {
    let tree = try await RecordedTree()
    let recorder = LogRecorder()
    let service = ContainmentService(window: Window(), root: tree.r, logger: recorder.logger)
    service.shutdownGracefully()
    try await service.run()
    await #expect(throws: ContainmentServiceError.stopped) { try await service.ready() }
  }

  @Test func aServiceRunsOnce() async throws {
    let tree = try await RecordedTree()
    let service = ContainmentService(window: Window(), root: tree.r)
    service.shutdownGracefully()
    try await service.run()
    await #expect(throws: ContainmentServiceError.alreadyStarted) { try await service.run() }
  }

  /// V5: "A shutdown or cancellation that comes before the call still tears
  /// the tree down": never shown, so no appearance hooks, only the stop hooks.
  @Test func aGracefulShutdownBeforeTheRunStillTearsTheTreeDown_V5() async throws {
    let tree = try await RecordedTree()
    let service = ContainmentService(window: Window(), root: tree.r)
    try await testGracefulShutdown { trigger in
      trigger.triggerGracefulShutdown()
      try await service.run()
    }
    #expect(tree.log.take() == RecordedTree.stopped)
    #expect(tree.tornDown == ["R", "A", "B", "B1"])
    await #expect(throws: ContainmentServiceError.stopped) { try await service.ready() }
  }

  @Test func aCancellationBeforeTheRunStillTearsTheTreeDown_V5() async throws {
    let tree = try await RecordedTree()
    let recorder = LogRecorder()
    let service = ContainmentService(window: Window(), root: tree.r, logger: recorder.logger)
    let gate = Gate()
    let running = Task {
      await gate.wait()
      try await service.run()
    }
    await gate.waiters(atLeast: 1)
    running.cancel()
    gate.open()
    try await running.value
    #expect(tree.log.take() == RecordedTree.stopped)
    #expect(tree.tornDown == ["R", "A", "B", "B1"])
    // The log ends with the root's `terminated`: run() returned after it.
    #expect(recorder.lines.last == "debug R terminated")
  }
}

/// A tree torn down by the runtime while its service runs ends the service
/// with an error, which its `ServiceGroup` escalates.
@Suite(.timeLimit(.minutes(1)))
struct TreeTornDownTests {
  @Test func aTreeTornDownByItsFaultPolicyEndsTheServiceAndTheGroup_V2() async throws {
    let log = HookLog()
    let r = RecordingController("R", log: log)
    let a = RecordingController("A", log: log)
    try await RecordedTree.embed(a, in: r)
    _ = log.take()
    let clock = ManualClock()
    let window = Window(
      environment: ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1), faultPolicy: .tearDownTree))
    let gate = Gate()
    await a.setOnHook { hook in if hook == "viewWillAppear" { await gate.wait() } }
    let service = ContainmentService(window: window, root: r)
    let group = ServiceGroup(services: [service], logger: .silent)
    let running = Task { try await group.run() }
    await gate.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)  // A's viewWillAppear deadline: A faults, the tree is torn down.
    clock.advance(by: .seconds(1))
    await #expect(throws: ContainmentServiceError.treeTornDown(r.node.id)) { try await running.value }
    gate.open()
    // A is faulted: its hooks are skipped.
    #expect(
      log.take() == [
        "R.viewWillAppear", "A.viewWillAppear", "R.viewIsAppearing", "R.viewDidAppear",
        "R.viewWillDisappear", "R.viewDidDisappear", "R.viewDidTearDown",
      ])
  }

  @Test func aShutdownRequestedThroughTheTreeServiceIsNotAnError() async throws {
    let tree = try await RecordedTree()
    let service = ContainmentService(window: Window(), root: tree.r)
    let running = Task { try await service.run() }
    try await service.ready()
    service.tree.shutdownGracefully()
    try await running.value
    #expect(tree.log.take() == RecordedTree.shown + RecordedTree.offScreen + RecordedTree.stopped)
  }

  @Test func aTreeTornDownThroughItsWindowEndsTheService() async throws {
    let tree = try await RecordedTree()
    let window = Window()
    let service = ContainmentService(window: window, root: tree.r)
    let running = Task { try await service.run() }
    try await service.ready()
    try await window.tearDown()
    await #expect(throws: ContainmentServiceError.treeTornDown(tree.r.node.id)) { try await running.value }
    #expect(tree.log.take() == RecordedTree.shown + RecordedTree.offScreen + RecordedTree.stopped)
  }
}
