import ContainmentTestKit
import Testing

@testable import Containment

/// V3: ordered teardown — off screen, stop hooks children before
/// parents within the tree's deadlines, streams end; nothing queued is lost.
@Suite(.timeLimit(.minutes(1)))
struct TeardownTests {
  /// R > (A > (A1, A2), B), R presenting M, on a window with `policy` on `clock`.
  private func threeLevels(_ f: Fixture, clock: ManualClock, policy: TeardownPolicy) async throws
    -> (Window, [String: RecordingController])
  {
    let window = Window(environment: ContainmentEnvironment(clock: clock, teardown: policy))
    let names = ["R", "A", "A1", "A2", "B", "M"]
    let c = Dictionary(uniqueKeysWithValues: names.map { ($0, f.controller($0)) })
    let root = try #require(c["R"])
    let a = try #require(c["A"])
    try await window.setRootViewController(root)
    try await f.install(a, in: root)
    try await f.install(try #require(c["A1"]), in: a)
    try await f.install(try #require(c["A2"]), in: a)
    try await f.install(try #require(c["B"]), in: root)
    try await root.present(try #require(c["M"]), style: .formSheet, animated: false)
    _ = f.log.take()
    return (window, c)
  }

  private let offScreen = [
    "M.viewWillDisappear", "R.viewWillDisappear", "A.viewWillDisappear", "A1.viewWillDisappear",
    "A2.viewWillDisappear", "B.viewWillDisappear", "M.viewDidDisappear", "R.viewDidDisappear",
    "A.viewDidDisappear", "A1.viewDidDisappear", "A2.viewDidDisappear", "B.viewDidDisappear",
  ]

  @Test func stopHooksRunChildrenBeforeParentsAfterTheTreeWentOffScreen_V3() async throws {
    let f = Fixture()
    let (window, c) = try await threeLevels(f, clock: ManualClock(), policy: .waitForever)
    var rootEvents = c["R"]!.events().makeAsyncIterator()
    _ = await rootEvents.next()
    try await window.tearDown()
    #expect(
      f.log.take() == offScreen + [
        "M.viewDidTearDown", "B.viewDidTearDown", "A2.viewDidTearDown", "A1.viewDidTearDown", "A.viewDidTearDown",
        "R.viewDidTearDown",
      ])
    #expect(
      await take(6, from: &rootEvents).map(\.kind) == [
        .viewWillDisappear(animated: false), .viewDidDisappear(animated: false),
        .dismissed(c["M"]!.node.id, style: .formSheet, reason: .tornDown), .viewDidTearDown, .terminated,
      ])
    #expect(c.values.allSatisfy { $0.node.isTornDown })
    // A second teardown does nothing.
    try await window.tearDown()
    await c["R"]!.tearDown()
    #expect(f.log.take() == [])
  }

  @Test func aStopHookPastTheGracefulDeadlineIsCancelledAndTheRestStillStop_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, c) = try await threeLevels(f, clock: clock, policy: TeardownPolicy(graceful: .seconds(1)))
    let release = Gate()
    await c["A1"]!.setOnHook { hook in
      guard hook == "viewDidTearDown" else { return }
      await withTaskCancellationHandler {
        await release.wait()
      } onCancel: {
        release.open()
      }
      f.log.append("A1 cancelled=\(Task.isCancelled)")
    }
    let teardown = Task { try await window.tearDown() }
    await release.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await teardown.value
    #expect(
      f.log.take() == offScreen + [
        "M.viewDidTearDown", "B.viewDidTearDown", "A2.viewDidTearDown", "A1.viewDidTearDown", "A1 cancelled=true",
        "A.viewDidTearDown", "R.viewDidTearDown",
      ])
  }

  @Test func aStopHookThatIgnoresCancellationIsAbandonedAfterTheSecondDeadline_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let policy = TeardownPolicy(graceful: .seconds(1), abandonAfter: .seconds(2))
    let (window, c) = try await threeLevels(f, clock: clock, policy: policy)
    let hung = Gate()
    let resumed = Gate()
    await c["A1"]!.setOnHook { hook in
      guard hook == "viewDidTearDown" else { return }
      await hung.wait()
      f.log.append("A1 resumed cancelled=\(Task.isCancelled)")
      resumed.open()
    }
    var rootEvents = c["R"]!.events().makeAsyncIterator()
    _ = await rootEvents.next()
    let teardown = Task { try await window.tearDown() }
    await hung.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    // Cancelled, still running: the teardown waits the second deadline.
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(2))
    try await teardown.value
    #expect(
      f.log.take() == offScreen + [
        "M.viewDidTearDown", "B.viewDidTearDown", "A2.viewDidTearDown", "A1.viewDidTearDown",
      ])
    // The streams ended without the stop hooks that never ran.
    #expect(
      await take(5, from: &rootEvents).map(\.kind) == [
        .viewWillDisappear(animated: false), .viewDidDisappear(animated: false),
        .dismissed(c["M"]!.node.id, style: .formSheet, reason: .tornDown), .terminated,
      ])
    // The abandoned hook returns later; nothing runs after it.
    hung.open()
    await resumed.wait()
    #expect(f.log.take() == ["A1 resumed cancelled=true"])
  }

  @Test func aTeardownBeforeShowIsRemembered_V3() async throws {
    let f = Fixture()
    let window = Window()
    let r = f.controller("R")
    try await window.tearDown()
    await #expect(throws: ContainmentError.windowTornDown) { try await window.setRootViewController(r) }
    #expect(f.log.take() == [])
    #expect(r.parent == nil && r.node.appearanceState == .disappeared && !r.node.isTornDown)
    #expect(window.rootViewController == nil)
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func everyRequestQueuedAtTeardownCompletes_V3() async throws {
    let f = Fixture()
    let window = Window()
    let r = f.controller("R")
    let other = f.controller("O")
    let gate = Gate()
    await r.setOnHook { hook in if hook == "viewWillAppear" { await gate.wait() } }
    let show = Task { try await window.setRootViewController(r) }
    await gate.waiters(atLeast: 1)
    let compact = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    await window.queue.pending(atLeast: 1)
    let teardown = Task { try await window.tearDown() }
    await window.queue.pending(atLeast: 2)
    let regular = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .regular)) }
    await window.queue.pending(atLeast: 3)
    let replace = Task { try await window.setRootViewController(other) }
    await window.queue.pending(atLeast: 4)
    gate.open()
    // Queued before the teardown: done. Behind it: refused, with the window's error.
    #expect(try await show.value.result != nil)
    try await compact.value
    try await teardown.value
    await #expect(throws: ContainmentError.windowTornDown) { try await regular.value }
    await #expect(throws: ContainmentError.windowTornDown) { try await replace.value }
    #expect(
      f.log.take() == [
        "R.viewDidLoad", "R.viewWillAppear", "R.viewIsAppearing", "R.viewDidAppear", "R.traitCollectionDidChange",
        "R.viewWillDisappear", "R.viewDidDisappear", "R.viewDidTearDown",
      ])
    #expect(window.traitCollection == TraitCollection(horizontalSizeClass: .compact))
    #expect(other.node.appearanceState == .disappeared && !other.node.isTornDown)
  }

  @Test func aControllerTreeOutsideAWindowStopsLeavesFirst_V3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    try await p.addChild(a)
    try await p.addChild(b)
    try await a.addChild(c)
    _ = f.log.take()
    await p.tearDown()
    #expect(f.log.take() == ["B.viewDidTearDown", "C.viewDidTearDown", "A.viewDidTearDown", "P.viewDidTearDown"])
    #expect(names(p.children) == ["A", "B"])
  }

  @Test func aStackChangeThatStartedBeforeItsSubtreeWasTornDownFinishesFirst_V3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = Window(environment: ContainmentEnvironment(clock: clock))
    let r = f.controller("R")
    let a = f.controller("A")
    let b = f.controller("B")
    let nav = NavigationController(name: "Nav", transitionDuration: .seconds(1))
    try await window.setRootViewController(r)
    try await r.addChild(nav)
    try await r.view.addSubview(await nav.view)
    await nav.didMove(toParent: r)
    try await nav.setViewControllers([a], animated: false)
    _ = f.log.take()
    async let pushed = nav.push(b, animated: true)
    await clock.sleepers(atLeast: 1)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
      ])
    // The stack leaves R first, in a transaction on R: it waits for the push.
    let teardown = Task { await nav.tearDown() }
    await r.node.hierarchy.waiters(atLeast: 1)
    #expect(f.log.take() == [])
    clock.advance(by: .seconds(1))
    #expect(try await pushed.value == .completed)
    await teardown.value
    // The push finishes, then the stack goes off screen, then stops: no
    // hook after a controller's viewDidTearDown.
    #expect(
      f.log.take() == [
        "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)", "B.viewWillDisappear", "B.viewDidDisappear",
        "B.viewDidTearDown", "A.viewDidTearDown",
      ])
    #expect(r.children.isEmpty && nav.viewControllers.count == 2)
    #expect(r.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  /// A container's scope tears one of its children down: the child leaves
  /// inline (R6), before the scope's next verb; its stop is a request onto a
  /// controller the scope delivered hooks to, so it runs once the scope
  /// ends (R2).
  @Test func aChildTornDownFromItsParentsScopeLeavesInlineAndStopsWhenTheScopeEnds_V3_R2_R6() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let d = f.controller("D")
    try await p.withTransaction { _ in
      await c.tearDown()
      try await p.addChild(d)
    }
    #expect(
      f.log.take() == [
        "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)", "D.willMove(P)",
        "C.viewDidTearDown",
      ])
    #expect(p.children.map(\.node.name) == ["D"] && c.isTornDown)
    await #expect(throws: ContainmentError.tornDown(c.node.id)) { try await p.addChild(c) }
    #expect(f.log.take() == [] && p.children.map(\.node.name) == ["D"])
    #expect(r.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  /// V3 for a part of a tree, as a supervisor stops a child: a stack's top
  /// leaves by the stack's rules (the controller below is shown), a
  /// presented controller is dismissed, both with reason `tornDown`; then
  /// each stops.
  @Test func aTornDownStackTopOrPresentedControllerLeavesByItsContainersRulesThenStops_V3_V4() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let m = f.controller("M")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    try await nav.present(m, style: .fullScreen, animated: false)
    var events = nav.events().makeAsyncIterator()
    _ = await events.next()
    _ = f.log.take()
    await m.tearDown()
    await b.tearDown()
    #expect(
      f.log.take() == [
        "M.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "M.viewDidDisappear", "B.viewDidAppear",
        "M.viewDidTearDown",
        "B.willMove(nil)", "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
        "B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)", "B.viewDidTearDown",
      ])
    #expect(
      await removals(2, from: &events, [nav, m, b]) == ["Nav dismissed(M, tornDown)", "Nav childRemoved(B, tornDown)"])
    #expect(nav.viewControllers.map(\.node.name) == ["A"] && nav.presentedViewController == nil)
    #expect(nav.checkInvariants().isEmpty)
    await #expect(throws: ContainmentError.tornDown(b.node.id)) { try await nav.push(b, animated: false) }
    #expect(f.log.take() == [] && nav.viewControllers.map(\.node.name) == ["A"])
    withExtendedLifetime(window) {}
  }

  /// No hook of a hand-forwarded call reaches a controller after its
  /// `viewDidTearDown` (V3).
  ///
  /// Such a call is no transaction: one that decided its hooks before a stop
  /// began still runs, but each of its hooks checks the stop on the
  /// controller's actor. Here P's `end` has decided C's did-hooks and is
  /// held in P's first hook while C is torn down. Unsupervised, and
  /// supervised (a hook deadline: each hook runs through the gateway's task).
  @Test(arguments: [false, true])
  func aHandForwardedCallThatLostTheRaceWithAStopDeliversNoHookAfterIt_V3(supervised: Bool) async throws {
    let f = Fixture()
    let r = f.controller("R")
    let g = f.controller("G", forwards: false)
    let p = f.controller("P")
    let c = f.controller("C")
    let window = Window(
      environment: ContainmentEnvironment(clock: ManualClock(), hookDeadline: supervised ? .seconds(1) : nil))
    try await window.setRootViewController(r)
    try await f.install(g, in: r)
    try await f.install(c, in: p)
    try await f.install(p, in: g)
    await p.beginAppearanceTransition(true, animated: false)
    #expect(f.log.take() == ["P.viewWillAppear", "C.viewWillAppear"])
    var events = c.events().makeAsyncIterator()
    _ = await events.next()
    let held = await hang(p, in: "viewIsAppearing")
    async let ended: Void = p.endAppearanceTransition()
    await held.waiters(atLeast: 1)
    await c.tearDown()
    held.open()
    await ended
    #expect(
      f.log.take() == [
        "P.viewIsAppearing", "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)",
        "C.viewDidTearDown", "P.viewDidAppear",
      ])
    #expect(
      await take(6, from: &events).map(\.kind) == [
        .willMove(toParent: nil), .viewWillDisappear(animated: false), .viewDidDisappear(animated: false),
        .didMove(toParent: nil), .viewDidTearDown, .terminated,
      ])
    #expect(p.children.isEmpty && c.isTornDown && p.appearanceState == .appeared)
    #expect(r.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }
}
