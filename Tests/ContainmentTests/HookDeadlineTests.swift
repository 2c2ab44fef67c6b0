import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// V1, V2: hook deadlines on the injected clock, faulted controllers, and
/// what each fault policy does with them.
@Suite(.timeLimit(.minutes(1)))
struct HookDeadlineTests {
  /// R > P > C on a window whose hooks have a one-second deadline under
  /// `policy`; P's `traitCollectionDidChange` waits for the returned gate.
  private func tree(_ f: Fixture, clock: ManualClock, policy: FaultPolicy) async throws
    -> (Window, RecordingController, RecordingController, RecordingController, Gate)
  {
    let environment = ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1), faultPolicy: policy)
    let window = Window(environment: environment)
    let r = f.controller("R")
    let p = f.controller("P")
    let c = f.controller("C")
    try await window.setRootViewController(r)
    try await f.install(p, in: r)
    try await f.install(c, in: p)
    let hung = await hang(p, in: "traitCollectionDidChange")
    return (window, r, p, c, hung)
  }

  /// Runs `request` until a hook hangs on `hung`, lets the one-second
  /// deadline pass, and returns what the request returns.
  @discardableResult
  private func pastTheDeadline<Value: Sendable>(
    clock: ManualClock, hung: Gate, _ request: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let running = Task { try await request() }
    await hung.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    return try await running.value
  }

  /// Changes the window's traits while a hook hangs, and lets the deadline pass.
  private func changeTraitsPastTheDeadline(_ window: Window, clock: ManualClock, hung: Gate) async throws {
    try await pastTheDeadline(clock: clock, hung: hung) {
      try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact))
    }
  }

  @Test func aHookPastItsDeadlineFaultsItsControllerWhichIsIsolatedFromItsParent_V1_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, r, p, c, hung) = try await tree(f, clock: clock, policy: .isolate)
    var rEvents = r.events().makeAsyncIterator()
    var pEvents = p.events().makeAsyncIterator()
    _ = await rEvents.next()
    _ = await pEvents.next()
    try await changeTraitsPastTheDeadline(window, clock: clock, hung: hung)
    // The transaction went on without P; then P and its subtree left R.
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "P.traitCollectionDidChange", "C.traitCollectionDidChange",
        "C.viewWillDisappear", "C.viewDidDisappear",
      ])
    #expect(p.isFaulted && !c.isFaulted && !r.isFaulted)
    #expect(p.parent == nil && names(r.children) == [] && names(p.children) == ["C"])
    #expect(
      await take(6, from: &pEvents).map(\.kind) == [
        .traitCollectionDidChange(TraitCollection(horizontalSizeClass: .compact)),
        .hookTimedOut(hook: "traitCollectionDidChange", deadline: .seconds(1)),
        .hookSkipped(hook: "willMove"), .hookSkipped(hook: "viewWillDisappear"),
        .hookSkipped(hook: "viewDidDisappear"), .hookSkipped(hook: "didMove"),
      ])
    #expect(
      await take(2, from: &rEvents).map(\.kind) == [
        .traitCollectionDidChange(TraitCollection(horizontalSizeClass: .compact)),
        .childRemoved(p.node.id, reason: .faulted),
      ])
    hung.open()
    #expect(r.checkInvariants().isEmpty && p.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  @Test func aFaultedControllerGetsNoMoreHooksAndReportOnlyLeavesItInPlace_V1_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, r, p, c, hung) = try await tree(f, clock: clock, policy: .reportOnly)
    let faulted = Task { try await p.waitUntil(.faulted) }
    try await changeTraitsPastTheDeadline(window, clock: clock, hung: hung)
    try await faulted.value
    #expect(f.log.take() == ["R.traitCollectionDidChange", "P.traitCollectionDidChange", "C.traitCollectionDidChange"])
    #expect(p.isFaulted && p.parent === r && c.parent === p)
    var pEvents = p.events().makeAsyncIterator()
    _ = await pEvents.next()
    // Its later hooks are skipped and reported; everyone else's still run.
    try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .regular))
    try await window.setRootViewController(nil)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "C.traitCollectionDidChange",
        "R.viewWillDisappear", "C.viewWillDisappear", "R.viewDidDisappear", "C.viewDidDisappear",
      ])
    #expect(
      await take(3, from: &pEvents).map(\.kind) == [
        .hookSkipped(hook: "traitCollectionDidChange"), .hookSkipped(hook: "viewWillDisappear"),
        .hookSkipped(hook: "viewDidDisappear"),
      ])
    // Already faulted: waiting for it returns at once.
    try await p.waitUntil(.faulted)
    hung.open()
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func tearDownTreePolicyTearsTheFaultedControllersWholeTreeDown_V2_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, r, p, c, hung) = try await tree(f, clock: clock, policy: .tearDownTree)
    try await changeTraitsPastTheDeadline(window, clock: clock, hung: hung)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "P.traitCollectionDidChange", "C.traitCollectionDidChange",
        "R.viewWillDisappear", "C.viewWillDisappear", "R.viewDidDisappear", "C.viewDidDisappear",
        "C.viewDidTearDown", "R.viewDidTearDown",
      ])
    #expect(r.isTornDown && p.isTornDown && c.isTornDown)
    await #expect(throws: ContainmentError.windowTornDown) { try await window.setRootViewController(nil) }
    hung.open()
  }

  @Test func requestsQueuedBehindAHungHookStillRunAndTheIsolationQueuesBehindThem_V1_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, r, p, _, hung) = try await tree(f, clock: clock, policy: .isolate)
    let d = f.controller("D")
    let change = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    await hung.waiters(atLeast: 1)
    // An add on R, waiting for the window's transaction (an ancestor's) to end.
    let add = Task { try await r.addChild(d) }
    await window.hierarchy.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await change.value
    _ = try await add.value
    try await r.waitUntil(.idle)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "P.traitCollectionDidChange", "C.traitCollectionDidChange",
        "D.willMove(R)", "C.viewWillDisappear", "C.viewDidDisappear",
      ])
    #expect(names(r.children) == ["D"] && p.parent == nil && p.isFaulted)
    hung.open()
    #expect(r.checkInvariants().isEmpty)
  }

  /// V1, V2 per environment: a controller's own environment supervises its
  /// subtree and nothing else.
  ///
  /// R > (P > C, Q) on a window with no deadline;
  /// P's environment sets one. C's hook hangs past it and C alone is
  /// faulted and isolated; Q's hook, outside P's subtree, hangs with no
  /// deadline and nothing watches it.
  @Test func aSubtreesOwnEnvironmentSupervisesThatSubtreeOnly_V1_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = Window(environment: ContainmentEnvironment(clock: clock))
    let r = f.controller("R")
    let p = f.controller("P")
    let c = f.controller("C")
    let q = f.controller("Q")
    try await window.setRootViewController(r)
    try await f.install(p, in: r)
    try await f.install(c, in: p)
    try await f.install(q, in: r)
    p.environment = ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1), faultPolicy: .isolate)
    let (cHung, qHung) = (Gate(), Gate())
    await c.setOnHook { hook in
      if hook == "traitCollectionDidChange" { await cHung.wait() }
    }
    await q.setOnHook { hook in
      if hook == "traitCollectionDidChange" { await qHung.wait() }
    }
    let change = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    await cHung.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    await qHung.waiters(atLeast: 1)
    // Q's hook runs with no deadline: nothing sleeps on the clock for it.
    #expect(clock.sleeperCount == 0)
    clock.advance(by: .seconds(60))
    qHung.open()
    try await change.value
    try await r.waitUntil(.idle)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "P.traitCollectionDidChange", "C.traitCollectionDidChange",
        "Q.traitCollectionDidChange",
      ])
    #expect(c.isFaulted && !p.isFaulted && !q.isFaulted && !r.isFaulted)
    #expect(c.parent == nil && names(p.children) == [] && names(r.children) == ["P", "Q"])
    cHung.open()
    #expect(r.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  @Test func aHookThatReturnsInTimeChangesNothing_V1() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, r, p, _, hung) = try await tree(f, clock: clock, policy: .isolate)
    let change = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    await hung.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    hung.open()
    try await change.value
    #expect(f.log.take() == ["R.traitCollectionDidChange", "P.traitCollectionDidChange", "C.traitCollectionDidChange"])
    #expect(!p.isFaulted && p.parent === r)
    #expect(r.checkInvariants().isEmpty)
  }

  /// A hook that waits for a request it made from a detached task: the
  /// request waits behind the hook's own transaction, which waits for the
  /// hook.
  ///
  /// The deadline breaks the cycle: the transaction moves on, the request runs,
  /// and the hook returns late, its controller faulted.
  @Test func aHookAwaitingADetachedRequestBehindItsOwnTransactionIsCutLoose_V1() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = Window(
      environment: ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1), faultPolicy: .reportOnly))
    let r = f.controller("R")
    let p = f.controller("P")
    let d = f.controller("D")
    try await window.setRootViewController(r)
    try await f.install(p, in: r)
    let returned = Gate()
    let log = f.log
    await p.setOnHook { hook in
      guard hook == "traitCollectionDidChange" else { return }
      let outcome = await Task.detached { await Result(catching: { try await r.addChild(d) }) }.value
      log.append("P's hook got \((try? outcome.get()) == nil ? "an error" : "its add")")
      returned.open()
    }
    let change = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    await window.hierarchy.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await change.value
    await returned.wait()
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "P.traitCollectionDidChange", "D.willMove(R)", "P's hook got its add",
      ])
    #expect(p.isFaulted && names(r.children) == ["P", "D"])
    #expect(r.checkInvariants().isEmpty)
  }

  /// A window with a one-second hook deadline and the isolate policy.
  private func supervisedWindow(_ clock: ManualClock) -> Window {
    Window(environment: ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1)))
  }

  @Test func aFaultedTopOfAStackIsIsolatedAndTheControllerBelowIsShownAgain_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = supervisedWindow(clock)
    let a = f.controller("A")
    let b = f.controller("B")
    let nav = try await f.onScreenNavigation([a], in: window)
    let hung = await hang(b, in: "viewWillAppear")
    try await pastTheDeadline(clock: clock, hung: hung) { try await nav.push(b, animated: false) }
    try await nav.waitUntil(.idle)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear",
        "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear",
      ])
    #expect(names(nav.viewControllers) == ["A"] && b.parent == nil && b.isFaulted)
    #expect(a.appearanceState == .appeared && a.viewIfLoaded?.window === window)
    hung.open()
    #expect(nav.checkInvariants().isEmpty)
  }

  /// A presented controller faulted is dismissed (reason `faulted`): its
  /// presenter appears again; its own hooks are skipped.
  @Test func aFaultedPresentedControllerIsDismissedAndItsPresenterShownAgain_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = supervisedWindow(clock)
    let r = f.controller("R")
    let m = f.controller("M")
    try await window.setRootViewController(r)
    var events = r.events().makeAsyncIterator()
    _ = await events.next()
    let hung = await hang(m, in: "viewWillAppear")
    _ = f.log.take()
    try await pastTheDeadline(clock: clock, hung: hung) { try await r.present(m, style: .fullScreen, animated: false) }
    try await r.waitUntil(.idle)
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "R.viewWillDisappear", "M.viewWillAppear", "R.viewDidDisappear", "R.viewWillAppear",
        "R.viewIsAppearing", "R.viewDidAppear",
      ])
    #expect(m.isFaulted && r.presentedViewController == nil && m.presentingViewController == nil)
    #expect(await removals(1, from: &events, [r, m]) == ["R dismissed(M, faulted)"])
    hung.open()
    #expect(r.checkInvariants().isEmpty && m.checkInvariants().isEmpty)
  }

  /// A child faulted while its container's presentation is dismissed is
  /// isolated once the dismissal has ended, in the presented tree that the
  /// dismissal cut off from its presenter: a waiter in that tree is not told
  /// it is idle before the isolation has run (V2, R2).
  @Test func idleInATreeCutOffByTheFaultingTransactionWaitsForTheIsolation_V2_readiness() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = supervisedWindow(clock)
    let r = f.controller("R")
    let m = f.controller("M")
    let d = f.controller("D")
    try await window.setRootViewController(r)
    try await f.install(d, in: m)
    try await r.present(m, style: .pageSheet, animated: false)
    let hung = await hang(d, in: "viewWillDisappear")
    _ = f.log.take()
    let dismissing = Task { _ = try await r.dismiss(animated: false) }
    await hung.waiters(atLeast: 1)
    let requests = IdleExecutor()
    let idle = Task(executorPreference: requests) {
      try await m.waitUntil(.idle)
      return d.parent == nil ? "idle, D isolated" : "idle, D still in M"
    }
    await requests.idle()
    #expect(TreeLock.withLock(m.node) { held in m.node[held].idleWaiters } == 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await dismissing.value
    #expect(try await idle.value == "idle, D isolated")
    #expect(f.log.take() == ["M.viewWillDisappear", "D.viewWillDisappear", "M.viewDidDisappear"])
    #expect(d.isFaulted && d.parent == nil && m.children.isEmpty && r.presentedViewController == nil)
    hung.open()
    #expect(r.checkInvariants().isEmpty && m.checkInvariants().isEmpty)
  }

  /// A window's root faulted leaves the window (reason `faulted`); the
  /// window stays usable.
  @Test func aFaultedWindowRootLeavesItsWindow_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = supervisedWindow(clock)
    let r = f.controller("R")
    let c = f.controller("C")
    try await window.setRootViewController(r)
    try await f.install(c, in: r)
    let hung = await hang(r, in: "traitCollectionDidChange")
    _ = f.log.take()
    try await changeTraitsPastTheDeadline(window, clock: clock, hung: hung)
    try await r.waitUntil(.idle)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "C.traitCollectionDidChange", "C.viewWillDisappear", "C.viewDidDisappear",
      ])
    #expect(r.isFaulted && window.rootViewController == nil && r.viewIfLoaded?.window == nil)
    let n = f.controller("N")
    try await window.setRootViewController(n)
    #expect(f.log.take() == ["N.viewDidLoad", "N.viewWillAppear", "N.viewIsAppearing", "N.viewDidAppear"])
    hung.open()
    #expect(r.checkInvariants().isEmpty && n.checkInvariants().isEmpty)
  }

  /// V1 reaches the stop hooks: one past the deadline faults its controller,
  /// and the teardown goes on to the controllers above it and ends.
  @Test func aStopHookPastItsDeadlineFaultsItsControllerAndTheTeardownGoesOn_V1_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = supervisedWindow(clock)
    let r = f.controller("R")
    let p = f.controller("P")
    let c = f.controller("C")
    try await window.setRootViewController(r)
    try await f.install(p, in: r)
    try await f.install(c, in: p)
    let hung = await hang(p, in: "viewDidTearDown")
    var events = p.events().makeAsyncIterator()
    _ = await events.next()
    _ = f.log.take()
    try await pastTheDeadline(clock: clock, hung: hung) { try await window.tearDown() }
    #expect(
      f.log.take() == [
        "R.viewWillDisappear", "P.viewWillDisappear", "C.viewWillDisappear", "R.viewDidDisappear",
        "P.viewDidDisappear", "C.viewDidDisappear", "C.viewDidTearDown", "P.viewDidTearDown", "R.viewDidTearDown",
      ])
    var kinds: [LifecycleEvent.Kind] = []
    while let event = await events.next() { kinds.append(event.kind) }
    #expect(
      kinds == [
        .viewWillDisappear(animated: false), .viewDidDisappear(animated: false), .viewDidTearDown,
        .hookTimedOut(hook: "viewDidTearDown", deadline: .seconds(1)), .terminated,
      ])
    #expect(p.isFaulted && !r.isFaulted && r.isTornDown && p.isTornDown)
    hung.open()
  }

  @Test func aFaultedSelectedTabIsIsolatedAndItsNeighbourIsSelected_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = supervisedWindow(clock)
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let tabs = TabBarController(name: "Tabs")
    try await window.setRootViewController(tabs)
    try await tabs.setViewControllers([a, b, c], selectedIndex: 0)
    _ = f.log.take()
    let hung = await hang(b, in: "viewWillAppear")
    try await pastTheDeadline(clock: clock, hung: hung) { try await tabs.setSelectedIndex(1) }
    try await tabs.waitUntil(.idle)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear",
        "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear",
      ])
    #expect(names(tabs.viewControllers) == ["A", "C"] && tabs.selectedViewController === c && b.isFaulted)
    hung.open()
    #expect(tabs.checkInvariants().isEmpty)
  }

  /// A controller whose `viewWillAppear` hangs before it ever appears never
  /// appears: a wait for `appeared` that is pending when it is faulted
  /// throws, and so does one that starts after; the state its stream
  /// reported last, idle and faulted are still reached (V1, E7).
  @Test func aPendingWaitToAppearThrowsWhenTheControllerIsFaultedBeforeItAppears_V1_E7() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = supervisedWindow(clock)
    let r = f.controller("R")
    let p = f.controller("P")
    try await window.setRootViewController(r)
    _ = f.log.take()
    let hung = await hang(p, in: "viewWillAppear")
    let waiter = IdleExecutor()
    let appeared = Task(executorPreference: waiter) { try await p.waitUntil(.appeared) }
    await waiter.idle()
    #expect(p.node.events.waitingSubscriberCount == 1)
    let install = Task {
      try await r.addChild(p)
      try await r.view.addSubview(await p.view)
    }
    await hung.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    await #expect(throws: ContainmentError.faulted(p.node.id)) { try await appeared.value }
    try await install.value
    try await r.waitUntil(.idle)
    #expect(f.log.take() == ["P.willMove(R)", "P.viewDidLoad", "P.viewWillAppear"])
    #expect(p.isFaulted && p.parent == nil && r.children.isEmpty)
    await #expect(throws: ContainmentError.faulted(p.node.id)) { try await p.waitUntil(.appeared) }
    try await p.waitUntil(.appearing)
    try await p.waitUntil(.faulted)
    try await p.waitUntil(.idle)
    hung.open()
    #expect(r.checkInvariants().isEmpty)
  }

  /// A controller faulted in `viewDidLoad` and left in place (report only)
  /// is shown without hooks: its stream still says `disappeared`, so a wait
  /// for `appeared` throws at once, and a wait for `disappeared` returns (V1, E7).
  @Test func aWaitToAppearOnAControllerFaultedBeforeItAppearedThrowsAtOnce_V1_E7() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = Window(
      environment: ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1), faultPolicy: .reportOnly))
    let r = f.controller("R")
    let p = f.controller("P")
    try await window.setRootViewController(r)
    try await r.addChild(p)
    _ = f.log.take()
    let hung = await hang(p, in: "viewDidLoad")
    let load = Task { await p.view }
    await hung.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await r.view.addSubview(await load.value)
    await p.didMove(toParent: r)
    #expect(f.log.take() == ["P.viewDidLoad"])
    #expect(p.isFaulted && p.parent === r)
    await #expect(throws: ContainmentError.faulted(p.node.id)) { try await p.waitUntil(.appeared) }
    try await p.waitUntil(.disappeared)
    try await p.waitUntil(.idle)
    hung.open()
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func policiesAndConditionsDescribeThemselvesByName() {
    let policies: [FaultPolicy] = [.isolate, .tearDownTree, .reportOnly]
    #expect(policies.map(\.description) == ["isolate", "tearDownTree", "reportOnly"])
    #expect([TreeCondition.idle, .tornDown, .faulted].map(\.description) == ["idle", "tornDown", "faulted"])
  }
}
