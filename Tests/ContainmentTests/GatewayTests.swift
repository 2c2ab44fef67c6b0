import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// V1, V3, V6: every call into user code goes through one supervised
/// gateway: `loadView`, delegate methods, scope bodies and drivers are
/// bounded like hooks; a deadline measures the code's own time; a teardown
/// reaches the calls of running transactions; long calls are reported.
@Suite(.timeLimit(.minutes(1)))
struct GatewayTests {
  /// A window on `clock` with `environment`'s settings, showing P.
  private func shown(
    _ f: Fixture, clock: ManualClock, deadline: Duration? = nil, teardown: TeardownPolicy = .waitForever,
    stall: Duration? = nil, policy: FaultPolicy = .reportOnly
  ) async throws -> (Window, RecordingController) {
    let environment = ContainmentEnvironment(
      clock: clock, teardown: teardown, hookDeadline: deadline, faultPolicy: policy, stallWarning: stall)
    let window = Window(environment: environment)
    let p = f.controller("P")
    try await window.setRootViewController(p)
    _ = f.log.take()
    return (window, p)
  }

  @Test func aLoadViewPastItsDeadlineFaultsItsControllerAndLeavesAPlainView_V1() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p) = try await shown(f, clock: clock, deadline: .seconds(1))
    let loading = Gate()
    let l = SlowLoader(name: "L", log: f.log, gate: loading)
    var events = l.events().makeAsyncIterator()
    _ = await events.next()
    try await p.addChild(l)
    let install = Task {
      try await p.view.addSubview(await l.view)
      await l.didMove(toParent: p)
    }
    await loading.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await install.value
    #expect(f.log.take() == ["L.loadView"])
    #expect(l.isFaulted && l.viewIfLoaded?.superview === p.viewIfLoaded)
    #expect(
      await take(7, from: &events).map(\.kind) == [
        .willMove(toParent: p.node.id), .hookTimedOut(hook: "loadView", deadline: .seconds(1)),
        .hookSkipped(hook: "viewDidLoad"), .hookSkipped(hook: "viewWillAppear"),
        .hookSkipped(hook: "viewIsAppearing"), .hookSkipped(hook: "viewDidAppear"), .hookSkipped(hook: "didMove"),
      ])
    loading.open()
    #expect(p.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  @Test func aDelegatePastItsDeadlineFaultsItsContainerAndTheSelectionGoesOn_V1_B3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let environment = ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1), faultPolicy: .reportOnly)
    let window = Window(environment: environment)
    let tabs = TabBarController(name: "Tabs")
    let a = f.controller("A")
    let b = f.controller("B")
    try await window.setRootViewController(tabs)
    try await tabs.setViewControllers([a, b])
    let deciding = Gate()
    let delegate = HungTabDelegate(log: f.log, gate: deciding)
    tabs.delegate = delegate
    _ = f.log.take()
    var events = tabs.events().makeAsyncIterator()
    _ = await events.next()
    let select = Task { try await tabs.select(1).value }
    await deciding.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    // A delegate no longer waited for does not veto: the selection goes on.
    #expect(try await select.value == true)
    #expect(
      f.log.take() == [
        "D.shouldSelect(B)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear",
      ])
    #expect(tabs.isFaulted && !a.isFaulted && !b.isFaulted)
    #expect(
      await take(4, from: &events).map(\.kind) == [
        .hookTimedOut(hook: "tabBarController(_:shouldSelect:)", deadline: .seconds(1)),
        .transitionBegan(from: a.node.id, to: b.node.id, options: []),
        .transitionEnded(from: a.node.id, to: b.node.id, outcome: .completed),
        .hookSkipped(hook: "tabBarController(_:didSelect:)"),
      ])
    deciding.open()
    #expect(tabs.checkInvariants().isEmpty)
    withExtendedLifetime((window, delegate)) {}
  }

  @Test func aScopeBodyPastItsDeadlineThrowsAndFreesTheQueue_V1_R6() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p) = try await shown(f, clock: clock, deadline: .seconds(1))
    let c = f.controller("C")
    let body = Gate()
    let scope = Task { try await p.withTransaction { _ in await body.wait() } }
    await body.waiters(atLeast: 1)
    let queued = Task { try await p.addChild(c) }
    await p.node.queue.pending(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    await #expect(throws: ContainmentError.userCodeAbandoned(p.node.id, call: "withTransaction")) {
      try await scope.value
    }
    _ = try await queued.value
    #expect(f.log.take() == ["C.willMove(P)"])
    #expect(p.isFaulted && names(p.children) == ["C"])
    body.open()
    #expect(p.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  /// A transition's `animations` are user code like a hook: past the
  /// deadline they are abandoned, their container is faulted (report only
  /// here), and the transition ends as it would have.
  @Test func animationsPastTheirDeadlineAreAbandonedAndTheTransitionEnds_V1_T2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p) = try await shown(f, clock: clock, deadline: .seconds(1))
    let a = f.controller("A")
    let b = f.controller("B")
    try await f.install(a, in: p)
    try await p.addChild(b)
    await b.didMove(toParent: p)
    _ = f.log.take()
    var events = p.events().makeAsyncIterator()
    _ = await events.next()
    let animating = Gate()
    let transition = Task {
      try await p.transition(from: a, to: b, duration: .milliseconds(500), animations: { await animating.wait() })
        .value
    }
    await animating.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 2)
    clock.advance(by: .seconds(1))
    #expect(try await transition.value == .completed)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear",
        "B.viewDidAppear",
      ])
    #expect(p.isFaulted && a.viewIfLoaded?.superview == nil && b.viewIfLoaded?.superview === p.viewIfLoaded)
    #expect(
      await take(3, from: &events).map(\.kind) == [
        .transitionBegan(from: a.node.id, to: b.node.id, options: []),
        .hookTimedOut(hook: "animations", deadline: .seconds(1)),
        .transitionEnded(from: a.node.id, to: b.node.id, outcome: .completed),
      ])
    animating.open()
    #expect(p.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  /// A container whose scope removes a child is not charged for the child's
  /// hooks: 2 × 60 ms of the child's own time under a 100 ms deadline
  /// faults nobody (V1, own time only).
  @Test func aDeadlineMeasuresOnlyTheCodesOwnTime_V1() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p) = try await shown(f, clock: clock, deadline: .milliseconds(100))
    let c = f.controller("C")
    try await f.install(c, in: p)
    let willDisappear = Gate()
    let didDisappear = Gate()
    await c.setOnHook { hook in
      if hook == "viewWillDisappear" { await willDisappear.wait() }
      if hook == "viewDidDisappear" { await didDisappear.wait() }
    }
    let scope = Task {
      try await p.withTransaction { _ in
        await c.willMove(toParent: nil)
        try await c.view.removeFromSuperview()
        try await c.removeFromParent()
      }
    }
    for gate in [willDisappear, didDisappear] {
      await gate.waiters(atLeast: 1)
      // The scope's timer and the child's hook's timer.
      await clock.sleepers(atLeast: 2)
      clock.advance(by: .milliseconds(60))
      gate.open()
    }
    _ = try await scope.value
    #expect(f.log.take() == ["C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)"])
    #expect(!p.isFaulted && !c.isFaulted && c.parent == nil)
    #expect(p.checkInvariants().isEmpty && c.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  /// No deadline, a teardown policy: a teardown requested while a
  /// transaction's hook runs cancels that hook after `graceful`, and the
  /// teardown goes on once it returns (V3).
  @Test func aTeardownCancelsTheHooksOfARunningTransaction_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let policy = TeardownPolicy(graceful: .milliseconds(100), abandonAfter: .milliseconds(100))
    let (window, p) = try await shown(f, clock: clock, teardown: policy)
    let c = f.controller("C")
    try await p.addChild(c)
    await c.setOnHook { hook in
      guard hook == "viewWillAppear" else { return }
      // An hour, unless cancelled.
      try? await clock.sleep(for: .seconds(3600))
      f.log.append("C.viewWillAppear returned cancelled=\(Task.isCancelled)")
    }
    let install = Task { try await p.view.addSubview(await c.view) }
    await clock.sleepers(atLeast: 1)
    let teardown = Task { try await window.tearDown() }
    // The hook's sleep and the teardown's escalation.
    await clock.sleepers(atLeast: 2)
    clock.advance(by: .milliseconds(100))
    try await install.value
    try await teardown.value
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewWillAppear returned cancelled=true",
        "C.viewIsAppearing",
        "C.viewDidAppear", "P.viewWillDisappear", "C.viewWillDisappear", "P.viewDidDisappear",
        "C.viewDidDisappear", "C.viewDidTearDown", "P.viewDidTearDown",
      ])
    #expect(!c.isFaulted && p.node.isTornDown && c.node.isTornDown)
  }

  /// A hook that ignores cancellation is abandoned after the policy's second
  /// deadline: the teardown always ends, the controller is faulted (V3).
  @Test func aTeardownAbandonsARunningHookThatIgnoresCancellation_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let policy = TeardownPolicy(graceful: .milliseconds(100), abandonAfter: .milliseconds(100))
    let (window, p) = try await shown(f, clock: clock, teardown: policy)
    let c = f.controller("C")
    try await p.addChild(c)
    let hung = Gate()
    await c.setOnHook { hook in if hook == "viewWillAppear" { await hung.wait() } }
    var events = c.events().makeAsyncIterator()
    _ = await events.next()
    let install = Task { try await p.view.addSubview(await c.view) }
    await hung.waiters(atLeast: 1)
    let teardown = Task { try await window.tearDown() }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .milliseconds(100))
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .milliseconds(100))
    try await install.value
    try await teardown.value
    try await c.waitUntil(.tornDown)
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "P.viewWillDisappear", "P.viewDidDisappear",
        "P.viewDidTearDown",
      ])
    #expect(c.isFaulted && c.node.isTornDown)
    #expect(
      await take(6, from: &events).map(\.kind.name) == [
        "viewDidLoad", "viewWillAppear", "hookAbandoned", "hookSkipped", "hookSkipped", "hookSkipped",
      ])
    hung.open()
  }

  /// A teardown's escalation counts a call's own time too: a scope body that
  /// only waits for its child's hung hook is not abandoned for it; the
  /// child's call is, and the scope then ends normally (V3).
  @Test func aTeardownAbandonsTheHungChildNotTheScopeWaitingForIt_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let policy = TeardownPolicy(graceful: .milliseconds(100), abandonAfter: .milliseconds(100))
    let (window, p) = try await shown(f, clock: clock, teardown: policy)
    let c = f.controller("C")
    let hung = Gate()
    await c.setOnHook { hook in if hook == "viewWillAppear" { await hung.wait() } }
    let scope = Task {
      try await p.withTransaction { _ in
        try await p.addChild(c)
        try await p.view.addSubview(await c.view)
        await c.didMove(toParent: p)
      }
    }
    await hung.waiters(atLeast: 1)
    let teardown = Task { try await window.tearDown() }
    // The body's escalation and the child's.
    await clock.sleepers(atLeast: 2)
    clock.advance(by: .milliseconds(100))
    await clock.sleepers(atLeast: 2)
    clock.advance(by: .milliseconds(100))
    _ = try await scope.value
    try await teardown.value
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "P.viewWillDisappear", "P.viewDidDisappear",
        "P.viewDidTearDown",
      ])
    #expect(c.isFaulted && !p.isFaulted && p.node.isTornDown)
    hung.open()
  }

  /// Without a deadline, a stall interval reports a long call once per
  /// interval of its own time and changes nothing else (V6).
  @Test func aLongCallIsReportedOncePerStallIntervalAndRunsOn_V6() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p) = try await shown(f, clock: clock, stall: .seconds(1))
    let c = f.controller("C")
    try await p.addChild(c)
    let slow = Gate()
    await c.setOnHook { hook in if hook == "viewWillAppear" { await slow.wait() } }
    var events = c.events().makeAsyncIterator()
    _ = await events.next()
    let install = Task { try await p.view.addSubview(await c.view) }
    await slow.waiters(atLeast: 1)
    for _ in 0..<2 {
      await clock.sleepers(atLeast: 1)
      clock.advance(by: .seconds(1))
    }
    await clock.sleepers(atLeast: 1)
    slow.open()
    try await install.value
    #expect(
      await take(6, from: &events).map(\.kind) == [
        .viewDidLoad, .viewWillAppear(animated: false),
        .hookStalled(hook: "viewWillAppear", after: .seconds(1)),
        .hookStalled(hook: "viewWillAppear", after: .seconds(2)),
        .viewIsAppearing(animated: false), .viewDidAppear(animated: false),
      ])
    #expect(
      f.log.take() == ["C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear"])
    #expect(!c.isFaulted)
    withExtendedLifetime(window) {}
  }

  /// An interactive pop whose driver never decides: past the deadline the
  /// gesture is cancelled and the stack faulted; the stack stays (N7, V1).
  @Test func aDriverPastItsDeadlineCancelsTheGesture_V1_N7() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let environment = ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1), faultPolicy: .reportOnly)
    let window = Window(environment: environment)
    let nav = NavigationController(name: "Nav", transitionDuration: .zero)
    let a = f.controller("A")
    let b = f.controller("B")
    try await window.setRootViewController(nav)
    try await nav.setViewControllers([a, b], animated: false)
    _ = f.log.take()
    let gesture = Gate()
    let pop = Task {
      try await nav.interactivePop { _ in
        await gesture.wait()
        return .finish
      }.value
    }
    await gesture.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    #expect(try await pop.value == .cancelled)
    #expect(
      f.log.take() == [
        "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "A.viewWillDisappear",
        "A.viewDidDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear",
      ])
    #expect(nav.isFaulted && names(nav.viewControllers) == ["A", "B"])
    gesture.open()
    #expect(nav.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  /// A split collapsing on a trait change, with a secondary whose two
  /// disappearance hooks take 60 ms each under a 100 ms deadline: nobody is
  /// faulted, the split least of all (its own hook only asks for the
  /// collapse, which waits for the trait change, R2), and the window keeps
  /// its root (V1).
  @Test func aContainerIsNotFaultedForItsChildrensHooks_V1_S2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let environment = ContainmentEnvironment(clock: clock, hookDeadline: .milliseconds(100), faultPolicy: .isolate)
    let window = Window(traits: TraitCollection(horizontalSizeClass: .regular), environment: environment)
    let split = SplitViewController(name: "Split")
    let p = f.controller("P")
    let s = f.controller("S")
    try await split.setViewControllers(primary: p, secondary: s)
    try await window.setRootViewController(split)
    _ = f.log.take()
    let willDisappear = Gate()
    let didDisappear = Gate()
    await s.setOnHook { hook in
      if hook == "viewWillDisappear" { await willDisappear.wait() }
      if hook == "viewDidDisappear" { await didDisappear.wait() }
    }
    let change = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    for gate in [willDisappear, didDisappear] {
      await gate.waiters(atLeast: 1)
      await clock.sleepers(atLeast: 1)
      clock.advance(by: .milliseconds(60))
      gate.open()
    }
    try await change.value
    #expect(
      f.log.take() == [
        "P.traitCollectionDidChange", "S.traitCollectionDidChange", "S.viewWillDisappear", "S.viewDidDisappear",
      ])
    #expect(!split.isFaulted && !p.isFaulted && !s.isFaulted)
    #expect(window.rootViewController === split && split.isCollapsed)
    #expect(split.checkInvariants().isEmpty)
  }

  /// A hook that awaits, from a detached task, a request on its own
  /// container waits for itself: a user's deadlock, as a synchronous
  /// dispatch onto the main queue from the main queue.
  ///
  /// Without a deadline nothing is cancelled, but a stall interval names the
  /// hook (V6).
  @Test func aStallReportNamesAHookThatWaitsForItsOwnContainer_V6() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p) = try await shown(f, clock: clock, stall: .seconds(1))
    let c = f.controller("C")
    let x = f.controller("X")
    let detached = Locked<Task<Void, any Error>?>(nil)
    let waiting = Gate()
    await c.setOnHook { hook in
      guard hook == "viewDidAppear" else { return }
      let request = Task.detached { _ = try await p.addChild(x) }
      detached.withLock { $0 = request }
      waiting.open()
      _ = await request.result
    }
    var events = c.events().makeAsyncIterator()
    _ = await events.next()
    let scope = Task {
      try await p.withTransaction { _ in
        try await p.addChild(c)
        try await p.view.addSubview(await c.view)
        await c.didMove(toParent: p)
      }
    }
    await waiting.wait()
    await p.node.queue.pending(atLeast: 1)
    await clock.sleepers(atLeast: 2)
    clock.advance(by: .seconds(1))
    #expect(
      await take(6, from: &events).map(\.kind) == [
        .willMove(toParent: p.node.id), .viewDidLoad, .viewWillAppear(animated: false),
        .viewIsAppearing(animated: false), .viewDidAppear(animated: false),
        .hookStalled(hook: "viewDidAppear", after: .seconds(1)),
      ])
    // The user's way out: the request that waits for the queue is cancelled.
    detached.withLock { $0 }?.cancel()
    _ = try await scope.value
    #expect(names(p.children) == ["C"] && x.parent == nil && !c.isFaulted)
    withExtendedLifetime(window) {}
  }
}

/// A controller whose `loadView` waits for a gate.
private actor SlowLoader: ViewController {
  nonisolated let node: ControllerNode
  let log: HookLog
  let gate: Gate

  init(name: String, log: HookLog, gate: Gate) {
    node = ControllerNode(name: name)
    self.log = log
    self.gate = gate
  }

  func loadView() async -> View {
    log.append("\(node.name).loadView")
    await gate.wait()
    return View()
  }
}

/// A tab delegate whose `shouldSelect` waits for a gate.
private actor HungTabDelegate: TabBarControllerDelegate {
  let log: HookLog
  let gate: Gate
  init(log: HookLog, gate: Gate) {
    self.log = log
    self.gate = gate
  }

  func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: any ViewController) async
    -> Bool
  {
    log.append("D.shouldSelect(\(viewController.node.name))")
    await gate.wait()
    return false
  }
}
