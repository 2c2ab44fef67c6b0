import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// R6: a custom container's change as one transaction (`withTransaction`).
@Suite(.timeLimit(.minutes(1)))
struct TransactionScopeTests {
  /// The UIKit three-step add of `child` to `parent`, inside a scope.
  @discardableResult
  private func addInScope(_ child: RecordingController, to parent: RecordingController) async throws
    -> TransactionHandle<TransactionID>
  {
    try await parent.withTransaction { scope in
      try await parent.addChild(child)
      try await parent.view.addSubview(await child.view)
      await child.didMove(toParent: parent)
      return scope.id
    }
  }

  @Test func scopeEventsShareOneTransactionID_R6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    var events = p.treeEvents().makeAsyncIterator()
    _ = await events.next()  // the subscription's snapshot
    let id = try await addInScope(c, to: p).value
    var seen: [String] = []
    for _ in 0..<7 {
      let event = try #require(await events.next())
      seen.append("\(event.path) \(event.kind.name) \(event.transaction == id ? "scope" : "other")")
    }
    #expect(
      seen == [
        "P childAdded scope", "P/C willMove scope", "P/C viewDidLoad scope", "P/C viewWillAppear scope",
        "P/C viewIsAppearing scope", "P/C viewDidAppear scope", "P/C didMove scope",
      ])
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "C.didMove(P)",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func requestFromOutsideWaitsForTheScope_R6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    let gate = Gate()
    let log = f.log
    async let scope = p.withTransaction { _ in
      try await p.addChild(a)
      await gate.wait()
      try await p.view.addSubview(await a.view)
      await a.didMove(toParent: p)
      log.append("scope ends")
    }
    await gate.waiters(atLeast: 1)
    async let outside = p.addChild(b)
    await p.node.queue.pending(atLeast: 1)
    #expect(f.log.all == ["A.willMove(P)"])
    gate.open()
    try await scope.value
    try await outside.value
    #expect(
      f.log.take() == [
        "A.willMove(P)", "A.viewDidLoad", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear", "A.didMove(P)",
        "scope ends", "B.willMove(P)",
      ])
    #expect(names(p.children) == ["A", "B"])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func requestFromAHookInsideTheScopeIsQueuedBehindIt_R6_R2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    let queued = Locked<TransactionHandle<Void>?>(nil)
    let log = f.log
    await a.setOnHook { hook in
      guard hook == "viewWillAppear" else { return }
      do {
        let handle = try await p.addChild(b)
        log.append("queued complete=\(handle.isComplete)")
        queued.withLock { $0 = handle }
      } catch {
        log.append("refused \(error)")
      }
    }
    try await addInScope(a, to: p)
    let handle = try #require(queued.withLock { $0 })
    try await handle.value
    #expect(
      f.log.take() == [
        "A.willMove(P)", "A.viewDidLoad", "A.viewWillAppear", "queued complete=false", "A.viewIsAppearing",
        "A.viewDidAppear", "A.didMove(P)", "B.willMove(P)",
      ])
    #expect(names(p.children) == ["A", "B"])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func scopeCancelledWhileWaitingChangesNothing_R6_R3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    let gate = Gate()
    let ran = Locked(false)
    async let holder = p.withTransaction { _ in await gate.wait() }
    await gate.waiters(atLeast: 1)
    let waiting = Task {
      try await p.withTransaction { _ in
        ran.withLock { $0 = true }
        try await p.addChild(b)
      }
    }
    await p.node.queue.pending(atLeast: 1)
    let before = snapshot(p)
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(snapshot(p) == before)
    gate.open()
    try await holder.value
    try await p.addChild(a)
    #expect(!ran.withLock { $0 })
    #expect(f.log.take() == ["A.willMove(P)"])
    #expect(names(p.children) == ["A"])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func errorHalfwayEndsTheScopeWithInvariantsHolding_R6() async throws {
    struct TapFailed: Error {}
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    await #expect(throws: TapFailed.self) {
      try await p.withTransaction { _ in
        try await p.addChild(a)
        throw TapFailed()
      }
    }
    #expect(f.log.take() == ["A.willMove(P)"])
    #expect(names(p.children) == ["A"])
    #expect(p.checkInvariants().isEmpty)
    try await addInScope(b, to: p)
    #expect(
      f.log.take() == [
        "B.willMove(P)", "B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "B.didMove(P)",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func twoScopesFromTwoTasksNeverInterleave_R6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    let gate = Gate()
    await a.setOnHook { hook in if hook == "viewDidLoad" { await gate.wait() } }
    async let first = addInScope(a, to: p)
    await gate.waiters(atLeast: 1)
    async let second = addInScope(b, to: p)
    await p.node.queue.pending(atLeast: 1)
    gate.open()
    let ids = (try await first.value, try await second.value)
    #expect(ids.0 != ids.1)
    #expect(
      f.log.take() == [
        "A.willMove(P)", "A.viewDidLoad", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear", "A.didMove(P)",
        "B.willMove(P)", "B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "B.didMove(P)",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  /// A two-child switcher written on the scope, driven by many tasks at once:
  /// every switch is one transaction, so each child's hooks alternate
  /// appear/disappear and exactly one child is active and installed.
  @Test func customContainerOnTheScopeStaysBalancedUnderConcurrentTaps_R6_R4() async throws {
    let f = Fixture()
    let first = f.controller("First")
    let second = f.controller("Second")
    let switcher = Switcher(first: first, second: second)
    let window = Window()
    try await window.setRootViewController(switcher)
    let taps = 40
    let succeeded = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<taps {
        group.addTask { (try? await switcher.show(index % 2 == 0 ? second : first)) != nil }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(succeeded == taps)
    // Each child's containment hooks and appearance hooks each follow their
    // own cycle (C3 leaves `viewDidAppear` and `didMove` unordered).
    let containment = ["willMove(Switcher)", "didMove(Switcher)", "willMove(nil)", "didMove(nil)"]
    let appearance = ["viewWillAppear", "viewIsAppearing", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]
    for child in [first, second] {
      let name = child.node.name
      let hooks = f.log.all.filter { $0.hasPrefix("\(name).") }.map { String($0.dropFirst(name.count + 1)) }
      #expect(hooks.first == "willMove(Switcher)")
      #expect(hooks.filter { $0 == "viewDidLoad" }.count == 1)
      for cycle in [containment, appearance] {
        let steps = hooks.filter { cycle.contains($0) }
        let expected = (0..<steps.count).map { cycle[$0 % cycle.count] }
        #expect(steps == expected, "\(name): \(steps)")
      }
    }
    let active = try #require(await switcher.active)
    #expect(names(switcher.children) == [active.node.name])
    #expect(active.viewIfLoaded?.window === window)
    #expect(switcher.checkInvariants().isEmpty)
  }
}

/// A custom container that shows one of two children, each switch one
/// transaction scope (the UIKit remove-then-add, as in the two-tab example).
private actor Switcher: ViewController {
  nonisolated let node = ControllerNode(name: "Switcher")
  let first: RecordingController
  let second: RecordingController
  private(set) var active: (any ViewController)?

  init(first: RecordingController, second: RecordingController) {
    self.first = first
    self.second = second
  }

  func setActive(_ child: (any ViewController)?) { active = child }

  func viewDidLoad() async {
    _ = try? await show(first)
  }

  nonisolated func show(_ child: RecordingController) async throws {
    try await withTransaction { _ in
      let old = await self.active
      guard old !== child else { return }
      if let old {
        await old.willMove(toParent: nil)
        try await old.view.removeFromSuperview()
        try await old.removeFromParent()
      }
      try await self.addChild(child)
      try await self.view.addSubview(await child.view)
      await child.didMove(toParent: self)
      await self.setActive(child)
    }
  }
}

/// R6: the children-change engine, public, for a custom container.
@Suite(.timeLimit(.minutes(1)))
struct ChildrenChangeTests {
  @Test func customContainerSwapOnTheEngineHasThePushOrder_R6_N2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = makeWindow(clock: clock)
    try await window.setRootViewController(p)
    try await p.changeChildren(ChildrenChange(children: [a], shown: [a]))
    _ = f.log.take()
    async let swap = p.changeChildren(
      ChildrenChange(children: [b], shown: [b], animated: true, duration: .milliseconds(300)))
    await clock.sleepers(atLeast: 1)
    #expect(
      f.log.all == [
        "A.willMove(nil)", "B.willMove(P)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
        "B.viewIsAppearing",
      ])
    #expect(a.viewIfLoaded?.window === window && b.viewIfLoaded?.window === window)
    clock.advance(by: .milliseconds(300))
    let result = try await swap.value
    #expect(result.outcome == .completed)
    #expect(names(result.removed) == ["A"] && names(result.added) == ["B"])
    #expect(
      f.log.take() == [
        "A.willMove(nil)", "B.willMove(P)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
        "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear", "A.didMove(nil)", "B.didMove(P)",
      ])
    #expect(names(p.children) == ["B"])
    #expect(a.parent == nil && a.viewIfLoaded?.superview == nil)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func engineRefusesBadChangesAndChangesNothing_R6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let q = f.controller("Q")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = try await f.onScreen(p)
    try await f.install(a, in: p)
    try await q.addChild(b)
    _ = f.log.take()
    let before = snapshot(p)
    await #expect(throws: ContainmentError.sameController(a.node.id)) {
      try await p.changeChildren(ChildrenChange(children: [a, a], shown: [a]))
    }
    await #expect(throws: ContainmentError.notAChild(child: b.node.id, parent: p.node.id)) {
      try await p.changeChildren(ChildrenChange(children: [a], shown: [b]))
    }
    await #expect(throws: ContainmentError.alreadyChild(child: b.node.id, parent: q.node.id)) {
      try await p.changeChildren(ChildrenChange(children: [a, b], shown: [a]))
    }
    await #expect(throws: ContainmentError.cannotAddSelfAsChild(p.node.id)) {
      try await p.changeChildren(ChildrenChange(children: [p], shown: []))
    }
    #expect(f.log.take() == [])
    #expect(snapshot(p) == before)
    #expect(b.parent === q)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }
}
