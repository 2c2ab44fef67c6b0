import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// §6: serialization and reentrancy.
@Suite(.timeLimit(.minutes(1)))
struct TransactionRulesTests {
  /// Holds `controller`'s `viewDidLoad` until the returned gate opens, then
  /// logs "<name>.viewDidLoad ends".
  private func holdViewDidLoad(of controller: RecordingController, logging log: HookLog) async -> Gate {
    let loading = Gate()
    let name = controller.node.name
    await controller.setOnHook { hook in
      guard hook == "viewDidLoad" else { return }
      await loading.wait()
      log.append("\(name).viewDidLoad ends")
    }
    return loading
  }

  /// A controller whose `willMove` hook blocks on a gate: holds its parent's
  /// transaction open across an `await`.
  private func blocker(_ f: Fixture, _ name: String, gate: Gate) async -> RecordingController {
    let c = f.controller(name)
    await c.setOnHook { hook in if hook == "willMove" { await gate.wait() } }
    return c
  }

  @Test func transactionsRunOneAtATimeInRequestOrder_R1() async throws {
    let f = Fixture()
    let gate = Gate()
    let p = f.controller("P")
    let a = await blocker(f, "A", gate: gate)
    let b = f.controller("B")
    let c = f.controller("C")
    async let first = p.addChild(a)
    await gate.waiters(atLeast: 1)
    // A's transaction is suspended inside a hook; B and C queue behind it, in order.
    let requests = IdleExecutor()
    let second = Task(executorPreference: requests) { try await p.addChild(b) }
    await requests.idle()
    #expect(p.node.queue.pendingCount == 1)
    let third = Task(executorPreference: requests) { try await p.addChild(c) }
    await requests.idle()
    #expect(p.node.queue.pendingCount == 2)
    #expect(names(p.children) == ["A"])
    #expect(f.log.all == ["A.willMove(P)"])
    gate.open()
    _ = try await (first, second.value, third.value)
    #expect(f.log.take() == ["A.willMove(P)", "B.willMove(P)", "C.willMove(P)"])
    #expect(names(p.children) == ["A", "B", "C"])
  }

  @Test func nestedRequestFromAHookIsQueuedNotDeadlocked_R2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let log = f.log
    let outcome = Locked<[String]>([])
    await a.setOnHook { hook in
      guard hook == "willMove" else { return }
      do {
        let handle = try await p.addChild(b)
        outcome.withLock { $0.append("queued complete=\(handle.isComplete)") }
        _ = try await handle.value
        outcome.withLock { $0.append("awaited") }
      } catch let error as ContainmentError {
        if case .awaitingOwnTransaction = error { outcome.withLock { $0.append("refused") } }
      } catch {
        outcome.withLock { $0.append("other \(error)") }
      }
      log.append("A.hook done")
    }
    try await p.addChild(a)
    #expect(outcome.withLock { $0 } == ["queued complete=false", "refused"])
    #expect(f.log.take() == ["A.willMove(P)", "A.hook done", "B.willMove(P)"])
    #expect(names(p.children) == ["A", "B"])
  }

  @Test func nestedRequestToAnAncestorRunsAfterTheTransaction_R2() async throws {
    let f = Fixture()
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
        let handle = try await g.addChild(b)  // G is an ancestor of P, whose transaction runs this hook
        log.append("A.hook done complete=\(handle.isComplete)")
      } catch {
        log.append("A.hook failed: \(error)")
      }
    }
    try await p.addChild(a)
    #expect(f.log.take() == ["A.willMove(P)", "A.hook done complete=false", "B.willMove(G)"])
    #expect(names(g.children) == ["P", "B"])
  }

  /// C removes itself from its hook while the window's transaction hides
  /// it: the removal is queued behind that transaction, so `didMove(nil)`
  /// stays C's last hook (R2, C4).
  @Test func childRemovingItselfWhileItsWindowHidesItIsQueuedBehind_R2_C4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    try await f.install(c, in: p)
    let handle = Locked<Result<TransactionHandle<Void>, any Error>?>(nil)
    await c.setOnHook { hook in
      guard hook == "viewWillDisappear" else { return }
      await c.willMove(toParent: nil)
      let queued = await Result { try await c.removeFromParent() }
      handle.withLock { $0 = queued }
    }
    try await window.setRootViewController(nil)
    let removal = try #require(handle.withLock { $0 }).get()
    try await removal.value
    #expect(
      f.log.take() == [
        "P.viewWillDisappear", "C.viewWillDisappear", "C.willMove(nil)",
        "P.viewDidDisappear", "C.viewDidDisappear", "C.didMove(nil)",
      ])
    #expect(p.children.isEmpty)
    #expect(c.parent == nil)
    #expect(c.node.appearanceState == .disappeared)
    #expect(p.checkInvariants().isEmpty)
    #expect(c.checkInvariants().isEmpty)
  }

  /// The same when an ancestor's transaction removes C's parent: C's
  /// removal waits until that removal, `P.didMove(nil)` included, is over.
  @Test func childRemovingItselfWhileAnAncestorRemovesItsParentIsQueuedBehind_R2_C4() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(r)
    try await f.install(p, in: r)
    try await f.install(c, in: p)
    let handle = Locked<Result<TransactionHandle<Void>, any Error>?>(nil)
    await c.setOnHook { hook in
      guard hook == "viewWillDisappear" else { return }
      await c.willMove(toParent: nil)
      let queued = await Result { try await c.removeFromParent() }
      handle.withLock { $0 = queued }
    }
    await p.willMove(toParent: nil)
    try await p.removeFromParent()
    let removal = try #require(handle.withLock { $0 }).get()
    try await removal.value
    #expect(
      f.log.take() == [
        "P.willMove(nil)",
        "P.viewWillDisappear", "C.viewWillDisappear", "C.willMove(nil)",
        "P.viewDidDisappear", "C.viewDidDisappear", "P.didMove(nil)", "C.didMove(nil)",
      ])
    #expect(r.children.isEmpty)
    #expect(p.children.isEmpty)
    #expect(c.parent == nil)
    withExtendedLifetime(window) {}
    for controller in [r, p, c] { #expect(controller.checkInvariants().isEmpty) }
  }

  /// A second reader of `view` waits until `viewDidLoad` has returned, so
  /// its install cannot run C's appearance inside C's own `viewDidLoad` (C7).
  @Test func concurrentViewReaderWaitsForViewDidLoad_C7() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    try await p.addChild(c)
    let log = f.log
    let loading = await holdViewDidLoad(of: c, logging: log)
    async let firstReader = c.view
    await loading.waiters(atLeast: 1)
    async let installer: Void = {
      let view = await p.view
      let childView = await c.view
      log.append("installer has the view")
      try await view.addSubview(childView)
      await c.didMove(toParent: p)
    }()
    await c.node.viewReaders(atLeast: 1)
    loading.open()
    _ = await firstReader
    try await installer
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewDidLoad ends", "installer has the view",
        "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "C.didMove(P)",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  /// C7's second half, without a view reader in the appearing path: a
  /// window that takes a controller whose view another task is loading
  /// waits for its `viewDidLoad` before any appearance hook.
  @Test func noAppearanceHookRunsWhileTheControllersOwnViewDidLoadRuns_C7() async throws {
    let f = Fixture()
    let x = f.controller("X")
    let loading = await holdViewDidLoad(of: x, logging: f.log)
    async let reader = x.view
    await loading.waiters(atLeast: 1)
    let window = Window()
    async let shown = window.setRootViewController(x)
    await x.node.viewReaders(atLeast: 1)
    #expect(f.log.take() == ["X.viewDidLoad"])
    loading.open()
    _ = await reader
    _ = try await shown
    #expect(f.log.take() == ["X.viewDidLoad ends", "X.viewWillAppear", "X.viewIsAppearing", "X.viewDidAppear"])
    #expect(x.appearanceState == .appeared && x.checkInvariants().isEmpty)
  }

  @Test func requestCancelledWhileQueuedChangesNothing_R3() async throws {
    let f = Fixture()
    let gate = Gate()
    let p = f.controller("P")
    let a = await blocker(f, "A", gate: gate)
    let b = f.controller("B")
    async let first = p.addChild(a)
    await gate.waiters(atLeast: 1)
    let requests = IdleExecutor()
    let queued = Task(executorPreference: requests) { try await p.addChild(b) }
    await requests.idle()
    #expect(p.node.queue.pendingCount == 1)
    queued.cancel()
    let result = await queued.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(p.node.queue.pendingCount == 0)
    gate.open()
    _ = try await first
    #expect(f.log.take() == ["A.willMove(P)"])
    #expect(names(p.children) == ["A"])
    #expect(b.parent == nil)
  }

  @Test func requestCancelledBeforeItIsQueuedChangesNothing_R3() async throws {
    let f = Fixture()
    let gate = Gate()
    let p = f.controller("P")
    let a = await blocker(f, "A", gate: gate)
    let b = f.controller("B")
    async let first = p.addChild(a)
    await gate.waiters(atLeast: 1)
    let result = await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await p.addChild(b)
    }.result
    #expect(throws: CancellationError.self) { try result.get() }
    gate.open()
    _ = try await first
    #expect(names(p.children) == ["A"])
    #expect(f.log.take() == ["A.willMove(P)"])
  }

  @Test func concurrentRequestsLinearize_R4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let children = (0..<32).map { f.controller("C\($0)") }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for child in children { group.addTask { try await p.addChild(child) } }
      try await group.waitForAll()
    }
    // Some sequential order of the requests explains both the final tree and the hooks.
    let order = f.log.take().map { String($0.prefix { $0 != "." }) }
    #expect(order.count == 32)
    #expect(names(p.children) == order)
    #expect(Set(order).count == 32)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func independentTreesDoNotSerializeEachOther_R5() async throws {
    let f = Fixture()
    let gate = Gate()
    let p1 = f.controller("P1")
    let p2 = f.controller("P2")
    let a = await blocker(f, "A", gate: gate)
    let b = f.controller("B")
    async let first = p1.addChild(a)
    await gate.waiters(atLeast: 1)
    // Tree 1 is mid-transaction; tree 2 completes a full add/remove meanwhile.
    try await p2.addChild(b)
    try await b.removeFromParent()
    #expect(f.log.take() == ["A.willMove(P1)", "B.willMove(P2)", "B.didMove(nil)"])
    gate.open()
    _ = try await first
    #expect(names(p1.children) == ["A"])
  }

  @Test func ancestorAndDescendantTransactionsNeverOverlap_R4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    try await f.install(a, in: p)
    try await p.addChild(b)
    _ = f.log.take()
    let gate = Gate()
    await a.setOnHook { hook in if hook == "viewWillDisappear" { await gate.wait() } }
    // The transition on P is suspended in A.viewWillDisappear ...
    async let transition = p.transition(from: a, to: b).value
    await gate.waiters(atLeast: 1)
    // ... when the window (P's ancestor) takes P off screen.
    let requests = IdleExecutor()
    let offScreen = Task(executorPreference: requests) { try await window.setRootViewController(nil) }
    await requests.idle()
    #expect(
      TreeLock.withLock(window) { held in Int(window.hierarchy[held].pending) + p.node.hierarchy[held].waiters.count }
        == 1
    )
    #expect(f.log.all == ["B.viewDidLoad", "A.viewWillDisappear"])
    gate.open()
    #expect(try await transition == .completed)
    _ = try await offScreen.value
    // The window's transaction ran after the transition, as if requested after it.
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear",
        "P.viewWillDisappear", "B.viewWillDisappear", "P.viewDidDisappear", "B.viewDidDisappear",
      ])
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func siblingSubtreesStillRunInParallel_R5() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let left = f.controller("L")
    let right = f.controller("Rt")
    let x = f.controller("X")
    let y = f.controller("Y")
    let window = try await f.onScreen(r)
    try await f.install(left, in: r)
    try await f.install(right, in: r)
    let gate = Gate()
    await x.setOnHook { hook in if hook == "willMove" { await gate.wait() } }
    async let blocked = left.addChild(x)
    await gate.waiters(atLeast: 1)
    // L's transaction is suspended; its sibling's subtree is not serialized behind it.
    try await right.addChild(y)
    #expect(f.log.take() == ["X.willMove(L)", "Y.willMove(Rt)"])
    gate.open()
    _ = try await blocked
    #expect(names(left.children) == ["X"])
    withExtendedLifetime(window) {}
  }

  @Test func requestCancelledWhileWaitingForAnOverlappingTransactionChangesNothing_R3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    try await f.install(a, in: p)
    try await p.addChild(b)
    _ = f.log.take()
    let gate = Gate()
    await a.setOnHook { hook in if hook == "viewWillDisappear" { await gate.wait() } }
    async let transition = p.transition(from: a, to: b).value
    await gate.waiters(atLeast: 1)
    // The window's request has its queue but waits for P's transaction to end.
    let requests = IdleExecutor()
    let offScreen = Task(executorPreference: requests) { try await window.setRootViewController(nil) }
    await requests.idle()
    #expect(TreeLock.withLock(window) { held in window.hierarchy[held].pending } == 1)
    offScreen.cancel()
    await #expect(throws: CancellationError.self) { try await offScreen.value }
    #expect(TreeLock.withLock(window) { held in window.hierarchy[held].pending } == 0)
    gate.open()
    #expect(try await transition == .completed)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear",
      ])
    #expect(window.rootViewController === p)
    #expect(p.node.appearanceState == .appeared)
    #expect(!window.queue.isHeld)
    // The window still works.
    try await window.setRootViewController(nil)
    #expect(f.log.take() == ["P.viewWillDisappear", "B.viewWillDisappear", "P.viewDidDisappear", "B.viewDidDisappear"])
  }

  @Test func cancellingAWaitingAncestorRequestReleasesRequestsQueuedBehindIt_R3() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let x = f.controller("X")
    let y = f.controller("Y")
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let window = try await f.onScreen(r)
    try await f.install(x, in: r)
    try await f.install(y, in: r)
    try await f.install(a, in: x)
    try await x.addChild(b)
    _ = f.log.take()
    let gate = Gate()
    await a.setOnHook { hook in if hook == "viewWillDisappear" { await gate.wait() } }
    // X's transition is suspended; the window's request waits for it (pending) ...
    async let transition = x.transition(from: a, to: b).value
    await gate.waiters(atLeast: 1)
    let requests = IdleExecutor()
    let offScreen = Task(executorPreference: requests) { try await window.setRootViewController(nil) }
    await requests.idle()
    #expect(TreeLock.withLock(window) { held in window.hierarchy[held].pending } == 1)
    // ... and a request in Y's (sibling) subtree waits behind the pending window request.
    let behind = Task(executorPreference: requests) { try await y.addChild(c) }
    await requests.idle()
    // The window's own request waits on the window's slot; Y's waits there behind it.
    #expect(TreeLock.withLock(window) { held in window.hierarchy[held].waiters.count } == 2)
    offScreen.cancel()
    await #expect(throws: CancellationError.self) { try await offScreen.value }
    // The request behind it runs now, while X's transition is still suspended.
    _ = try await behind.value
    #expect(c.parent === y)
    #expect(f.log.take() == ["B.viewDidLoad", "A.viewWillDisappear", "C.willMove(Y)"])
    gate.open()
    #expect(try await transition == .completed)
    #expect(f.log.take() == ["B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear"])
    #expect(window.rootViewController === r)
  }

  @Test func aRequestIntoASubtreeWhoseRemovalStillDeliversWaitsForIt_R4() async throws {
    let f = Fixture()
    let (window, _, p, _) = try await f.tree()
    let a = f.controller("A")
    let h = f.controller("H")
    let c = f.controller("C")
    try await f.install(a, in: p)
    try await f.install(h, in: a)
    try await f.install(c, in: h)
    let gate = Gate()
    await c.setOnHook { hook in if hook == "viewWillDisappear" { await gate.wait() } }
    await a.willMove(toParent: nil)
    async let removal = a.removeFromParent()
    await gate.waiters(atLeast: 1)
    // A's subtree is unlinked, its tree its own, while the removal (on P)
    // still delivers its hooks: a request on H from outside must not cut in.
    async let scoped = h.withTransaction { _ in f.log.append("scope on H") }
    await a.node.hierarchy.waiters(atLeast: 1)
    gate.open()
    _ = try await removal
    _ = try await scoped
    #expect(
      f.log.take() == [
        "A.willMove(nil)", "A.viewWillDisappear", "H.viewWillDisappear", "C.viewWillDisappear",
        "A.viewDidDisappear", "H.viewDidDisappear", "C.viewDidDisappear", "A.didMove(nil)", "scope on H",
      ])
    #expect(p.checkInvariants().isEmpty && a.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }
}
