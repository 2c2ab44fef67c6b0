import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// V5: a tree run as a service; readiness (`waitUntil(.idle)`,
/// `waitUntil(.tornDown)`).
@Suite(.timeLimit(.minutes(1)))
struct ServiceRunTests {
  private let shownThenTornDown = [
    "R.viewDidLoad", "R.viewWillAppear", "R.viewIsAppearing", "R.viewDidAppear",
    "C.willMove(R)", "R.viewWillDisappear", "R.viewDidDisappear", "C.viewDidTearDown", "R.viewDidTearDown",
  ]

  /// Runs `service` in a task until the tree is shown, adds a child C.
  private func start(_ service: TreeService, _ f: Fixture) async throws -> (Task<Void, any Error>, RecordingController)
  {
    let run = Task { try await service.run() }
    try await service.root.waitUntil(.appeared)
    let c = f.controller("C")
    try await service.root.addChild(c)
    return (run, c)
  }

  @Test func cancellingTheRunTearsTheTreeDownInOrder_V5() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let service = TreeService(window: Window(), root: r)
    let (run, c) = try await start(service, f)
    run.cancel()
    try await run.value
    #expect(f.log.take() == shownThenTornDown)
    #expect(r.node.isTornDown && c.node.isTornDown && service.window.rootViewController == nil)
    await #expect(throws: ContainmentError.windowTornDown) {
      try await service.window.setRootViewController(f.controller("X"))
    }
  }

  @Test func aGracefulShutdownEndsTheRun_V5() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let service = TreeService(window: Window(), root: r)
    let (run, _) = try await start(service, f)
    service.shutdownGracefully()
    try await run.value
    #expect(f.log.take() == shownThenTornDown)
    try await r.waitUntil(.tornDown)
  }

  /// A tree R > C (C's view installed, never shown) with R's event stream
  /// subscribed; the log is emptied.
  private func unshownTree(_ f: Fixture) async throws -> (RecordingController, RecordingController) {
    let r = f.controller("R")
    let c = f.controller("C")
    try await f.install(c, in: r)
    return (r, c)
  }

  /// Everything a tree handed to `run` and never shown ends with (V3): no
  /// appearance hooks, teardown hooks leaves first, the streams end, later
  /// requests refused, the window refuses a root.
  private func expectTornDownUnshown(
    _ r: RecordingController, _ c: RecordingController, _ service: TreeService, _ f: Fixture,
    events: inout LifecycleEvents.AsyncIterator
  ) async throws {
    #expect(f.log.take() == ["C.viewDidTearDown", "R.viewDidTearDown"])
    #expect(r.node.isTornDown && c.node.isTornDown)
    try await r.waitUntil(.tornDown)
    var kinds: [String] = []
    while let event = await events.next() { kinds.append(event.kind.name) }
    #expect(kinds == ["viewDidTearDown", "terminated"])
    await #expect(throws: ContainmentError.tornDown(r.node.id)) { try await r.addChild(f.controller("X")) }
    await #expect(throws: ContainmentError.windowTornDown) { try await service.window.setRootViewController(r) }
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func aShutdownRequestedBeforeTheRunStillTearsTheTreeDown_V5_V3() async throws {
    let f = Fixture()
    let (r, c) = try await unshownTree(f)
    var events = r.events().makeAsyncIterator()
    #expect(await events.next()?.kind.name == "subscribed")
    let service = TreeService(window: Window(), root: r)
    service.shutdownGracefully()
    try await service.run()
    try await expectTornDownUnshown(r, c, service, f, events: &events)
  }

  @Test func aRunWhoseTaskIsCancelledBeforeItStartsStillTearsTheTreeDown_V5_V3() async throws {
    let f = Fixture()
    let (r, c) = try await unshownTree(f)
    var events = r.events().makeAsyncIterator()
    #expect(await events.next()?.kind.name == "subscribed")
    let service = TreeService(window: Window(), root: r)
    let started = Gate()
    let run = Task {
      await started.wait()
      try await service.run()
    }
    await started.waiters(atLeast: 1)
    run.cancel()
    started.open()
    try await run.value
    try await expectTornDownUnshown(r, c, service, f, events: &events)
  }

  @Test func aRootOfAnotherTreeHandedToARunThatNeverShowsItIsLeftAlone_V5() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let r = f.controller("R")
    try await p.addChild(r)
    _ = f.log.take()
    let service = TreeService(window: Window(), root: r)
    service.shutdownGracefully()
    try await service.run()
    #expect(f.log.take() == [])
    #expect(!r.node.isTornDown && r.parent === p)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func idleIsCheckedWhenAQueueOfItsOwnTreeFreesNotAnothersTree_readiness() async throws {
    let f = Fixture()
    let window = Window()
    let r = f.controller("R")
    let c = f.controller("C")
    try await window.setRootViewController(r)
    // Another tree, under another link lock than R's.
    let q = (0...TreeLock.domains.count).lazy.map { f.controller("Q\($0)") }.first {
      $0.node.linkDomain != r.node.linkDomain
    }!
    let s = f.controller("S")
    _ = f.log.take()
    let gate = Gate()
    await c.setOnHook { hook in if hook == "viewWillAppear" { await gate.wait() } }
    try await r.addChild(c)
    let install = Task { try await r.view.addSubview(await c.view) }
    await gate.waiters(atLeast: 1)
    let idle = Task {
      try await c.waitUntil(.idle)
      f.log.append("idle")
    }
    // The other tree's queues free meanwhile: C's tree is still busy.
    try await q.addChild(s)
    await s.didMove(toParent: q)
    gate.open()
    try await install.value
    try await idle.value
    #expect(
      f.log.take() == [
        "C.willMove(R)", "C.viewDidLoad", "C.viewWillAppear", "S.willMove(\(q.node.name))", "S.didMove(\(q.node.name))",
        "C.viewIsAppearing", "C.viewDidAppear", "idle",
      ])
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func aWaiterForIdleMovesWithItsTreeToAnotherLink_readiness() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let c = f.controller("C")
    _ = await r.view
    // A view of another tree, under another link lock than R's.
    let host = (0...TreeLock.domains.count).lazy.map { _ in View() }.first { $0.linkDomain != r.node.linkDomain }!
    let gate = Gate()
    await c.setOnHook { hook in if hook == "willMove" { await gate.wait() } }
    async let adding = r.addChild(c)
    await gate.waiters(atLeast: 1)
    let requests = IdleExecutor()
    let idle = Task(executorPreference: requests) {
      try await r.waitUntil(.idle)
      f.log.append("idle")
    }
    await requests.idle()
    #expect(TreeLock.withLock(r.node) { held in r.node[held].idleWaiters } == 1)
    // R's tree joins the other one's lock while its waiter waits.
    try await host.addSubview(await r.view)
    #expect(r.node.linkDomain == host.linkDomain)
    gate.open()
    _ = try await adding
    try await idle.value
    #expect(f.log.take() == ["R.viewDidLoad", "C.willMove(R)", "idle"])
    #expect(TreeLock.withLock(r.node) { held in r.node[held].idleWaiters } == 0)
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func idleWaitsForEveryTransactionThatCanTouchTheSubtree_readiness() async throws {
    let f = Fixture()
    let window = Window()
    let r = f.controller("R")
    let c = f.controller("C")
    try await window.setRootViewController(r)
    try await r.waitUntil(.idle)
    let gate = Gate()
    await c.setOnHook { hook in if hook == "viewWillAppear" { await gate.wait() } }
    try await r.addChild(c)
    let install = Task {
      try await r.withTransaction { _ in
        _ = try await r.view.addSubview(await c.view)
      }
    }
    await gate.waiters(atLeast: 1)
    let idle = Task {
      try await c.waitUntil(.idle)
      f.log.append("idle")
    }
    let tornDown = Task {
      try await c.waitUntil(.tornDown)
      f.log.append("tornDown")
    }
    gate.open()
    _ = try await install.value
    try await idle.value
    await window.tearDownInOrder()
    try await tornDown.value
    #expect(
      f.log.take() == [
        "R.viewDidLoad", "R.viewWillAppear", "R.viewIsAppearing", "R.viewDidAppear", "C.willMove(R)",
        "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "idle",
        "R.viewWillDisappear", "C.viewWillDisappear", "R.viewDidDisappear", "C.viewDidDisappear",
        "C.viewDidTearDown", "R.viewDidTearDown", "tornDown",
      ])
  }

  /// A tree G > P in which P adds A and A's `willMove` asks G to add B.
  ///
  /// That request is deferred until P's transaction ends (R2). A's `willMove`
  /// then waits for `hookGate`, and B's for `deferredGate` once the deferred
  /// request runs. Returns the task adding A.
  private func deferringTree(
    _ f: Fixture, hookGate: Gate, deferredGate: Gate
  ) async throws -> (g: RecordingController, a: RecordingController, adding: Task<Void, any Error>) {
    let g = f.controller("G")
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    try await g.addChild(p)
    _ = f.log.take()
    let log = f.log
    await a.setOnHook { hook in
      guard hook == "willMove" else { return }
      do {
        let handle = try await g.addChild(b)
        log.append("deferred complete=\(handle.isComplete)")
      } catch {
        log.append("request failed: \(error)")
      }
      await hookGate.wait()
    }
    await b.setOnHook { hook in if hook == "willMove" { await deferredGate.wait() } }
    let adding = Task { _ = try await p.addChild(a) }
    return (g, a, adding)
  }

  @Test func idleWaitsForARequestDeferredOntoAnAncestorUntilItRuns_readiness_R2() async throws {
    let f = Fixture()
    let hookGate = Gate()
    let deferredGate = Gate()
    let (g, a, adding) = try await deferringTree(f, hookGate: hookGate, deferredGate: deferredGate)
    await hookGate.waiters(atLeast: 1)
    let requests = IdleExecutor()
    let log = f.log
    let idle = Task(executorPreference: requests) {
      try await a.waitUntil(.idle)
      log.append("idle")
    }
    await requests.idle()
    #expect(TreeLock.withLock(a.node) { held in a.node[held].idleWaiters } == 1)
    // P's transaction ends and frees its queue; the request it deferred onto
    // G is dispatched after that, so in between A's tree is still not idle.
    hookGate.open()
    await deferredGate.waiters(atLeast: 1)
    #expect(TreeLock.withLock(a.node) { held in a.node[held].idleWaiters } == 1)
    deferredGate.open()
    try await adding.value
    try await idle.value
    #expect(f.log.take() == ["A.willMove(P)", "deferred complete=false", "B.willMove(G)", "idle"])
    #expect(TreeLock.withLock(a.node) { held in a.node[held].idleWaiters } == 0)
    #expect(names(g.children) == ["P", "B"])
    #expect(g.checkInvariants().isEmpty)
  }

  @Test func aDeferredRequestInOneTreeDoesNotHoldBackIdleWaitersOfAnother_readiness_R5() async throws {
    let f = Fixture()
    let hookGate = Gate()
    let deferredGate = Gate()
    let (g, _, adding) = try await deferringTree(f, hookGate: hookGate, deferredGate: deferredGate)
    await hookGate.waiters(atLeast: 1)
    let z = f.controller("Z")
    let y = f.controller("Y")
    try await z.addChild(y)
    hookGate.open()
    // G's deferred request runs, held in B's hook: the other tree is idle.
    await deferredGate.waiters(atLeast: 1)
    try await y.waitUntil(.idle)
    f.log.append("Y idle")
    deferredGate.open()
    try await adding.value
    #expect(
      f.log.take() == ["A.willMove(P)", "deferred complete=false", "Y.willMove(Z)", "B.willMove(G)", "Y idle"])
    #expect(names(g.children) == ["P", "B"])
    #expect(g.checkInvariants().isEmpty && z.checkInvariants().isEmpty)
  }

  @Test func readinessWaitsEndWhenTheirTaskIsCancelled_readiness() async throws {
    let f = Fixture()
    let window = Window()
    let r = f.controller("R")
    let gate = Gate()
    await r.setOnHook { hook in if hook == "viewWillAppear" { await gate.wait() } }
    let show = Task { try await window.setRootViewController(r) }
    await gate.waiters(atLeast: 1)
    let idle = Task { try await r.waitUntil(.idle) }
    let tornDown = Task { try await r.waitUntil(.tornDown) }
    idle.cancel()
    tornDown.cancel()
    await #expect(throws: CancellationError.self) { try await idle.value }
    await #expect(throws: CancellationError.self) { try await tornDown.value }
    gate.open()
    _ = try await show.value
    #expect(f.log.take() == ["R.viewDidLoad", "R.viewWillAppear", "R.viewIsAppearing", "R.viewDidAppear"])
    #expect(!r.node.isTornDown)
  }
}
