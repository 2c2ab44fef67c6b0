import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// A request made from a hook is queued behind the running transaction for
/// as long as that transaction may still owe hooks to the controllers the
/// request touches (R2, R6, P5) — from did-hooks as from will-hooks, for
/// every verb.
///
/// Each test arms one hook to make a request onto its own controller and logs
/// whether the request was complete when the hook's call returned; the whole
/// hook log shows where the request ran.
@Suite(.timeLimit(.minutes(1)))
struct DidHookRequestTests {
  /// A request armed on one hook of one controller.
  final class Armed: Sendable {
    private let outcome = Locked<(@Sendable () async throws -> Void)?>(nil)

    /// Waits for the request's outcome; fails the test if it was never made.
    func finished() async throws {
      let wait = try #require(outcome.withLock { $0 }, "the armed hook never ran")
      try await wait()
    }

    fileprivate func made<T: Sendable>(_ handle: TransactionHandle<T>) {
      outcome.withLock { $0 = { _ = try await handle.value } }
    }

    fileprivate var isMade: Bool { outcome.withLock { $0 != nil } }
  }

  /// The first time `controller` runs `hook`, it makes `request`; the log
  /// gets "queued complete=…" when the request's call returns.
  private func arm<T: Sendable>(
    _ controller: RecordingController, on hook: String, log: HookLog,
    _ request: @escaping @Sendable () async throws -> TransactionHandle<T>
  ) async -> Armed {
    let armed = Armed()
    await controller.setOnHook { name in
      guard name == hook, !armed.isMade else { return }
      do {
        let handle = try await request()
        log.append("queued complete=\(handle.isComplete)")
        armed.made(handle)
      } catch {
        log.append("refused \(error)")
      }
    }
    return armed
  }

  @Test func requestFromADidHookInsideAScopeWaitsForTheScope_R6_R2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let g = f.controller("G")
    let window = try await f.onScreen(p)
    let armed = await arm(c, on: "viewDidAppear", log: f.log) { try await c.addChild(g) }
    try await p.withTransaction { _ in
      try await p.addChild(c)
      try await p.view.addSubview(await c.view)
      await c.didMove(toParent: p)
      f.log.append("scope ends")
    }
    try await armed.finished()
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear",
        "queued complete=false", "C.didMove(P)", "scope ends", "G.willMove(C)",
      ])
    #expect(names(c.children) == ["G"])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func requestFromTheLastHookOfAPlainAddWaitsForTheAdd_R2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let g = f.controller("G")
    let window = try await f.onScreen(p)
    try await p.addChild(c)
    let armed = await arm(c, on: "viewDidAppear", log: f.log) { try await c.addChild(g) }
    try await p.view.addSubview(await c.view)
    f.log.append("addSubview returned")
    await c.didMove(toParent: p)
    try await armed.finished()
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear",
        "queued complete=false", "G.willMove(C)", "addSubview returned", "C.didMove(P)",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfARemovalWaitsForDidMoveNil_C4_R2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let g = f.controller("G")
    let window = try await f.onScreen(p)
    try await f.install(c, in: p)
    let armed = await arm(c, on: "viewDidDisappear", log: f.log) { try await c.addChild(g) }
    try await p.withTransaction { _ in
      await c.willMove(toParent: nil)
      try await c.view.removeFromSuperview()
      try await c.removeFromParent()
      f.log.append("scope ends")
    }
    try await armed.finished()
    #expect(
      f.log.take() == [
        "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "queued complete=false", "C.didMove(nil)",
        "scope ends", "G.willMove(C)",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty && c.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfATransitionWaitsForTheTransition_T2_R2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let g = f.controller("G")
    let window = try await f.onScreen(p)
    try await f.install(a, in: p)
    try await p.addChild(b)
    _ = f.log.take()
    let armed = await arm(b, on: "viewDidAppear", log: f.log) { try await b.addChild(g) }
    try await p.transition(from: a, to: b)
    f.log.append("transition returned")
    try await armed.finished()
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear",
        "B.viewDidAppear", "queued complete=false", "G.willMove(B)", "transition returned",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfAPushWaitsForDidMove_N2_R2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let g = f.controller("G")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a], in: window)
    let armed = await arm(b, on: "viewDidAppear", log: f.log) { try await b.addChild(g) }
    try await nav.push(b, animated: false)
    try await armed.finished()
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear", "queued complete=false", "B.didMove(Nav)", "G.willMove(B)",
      ])
    #expect(nav.checkInvariants().isEmpty)
  }

  /// Policy: a container that builds its children in `viewDidLoad` gets
  /// them before it appears, as in UIKit, even when the transaction that
  /// loads its view has already delivered it `willMove`.
  @Test func requestFromViewDidLoadRunsBeforeTheAppearance_N2_C3() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let g = f.controller("G")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a], in: window)
    let armed = await arm(b, on: "viewDidLoad", log: f.log) { try await b.addChild(g) }
    try await nav.push(b, animated: false)
    try await armed.finished()
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "G.willMove(B)", "queued complete=true", "A.viewWillDisappear",
        "B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)",
      ])
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfAPopWaitsForDidMoveNil_N3_R2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let g = f.controller("G")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a, b], in: window)
    let armed = await arm(a, on: "viewDidAppear", log: f.log) { try await a.addChild(g) }
    try await nav.pop(animated: false)
    try await armed.finished()
    #expect(
      f.log.take() == [
        "B.willMove(nil)", "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
        "B.viewDidDisappear", "A.viewDidAppear", "queued complete=false", "B.didMove(nil)", "G.willMove(A)",
      ])
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfSetViewControllersWaitsForIt_N5_R2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let x = f.controller("X")
    let y = f.controller("Y")
    let g = f.controller("G")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a, b], in: window)
    let armed = await arm(y, on: "viewDidAppear", log: f.log) { try await y.addChild(g) }
    try await nav.setViewControllers([x, y], animated: false)
    try await armed.finished()
    #expect(
      f.log.take() == [
        "A.willMove(nil)", "B.willMove(nil)", "X.willMove(Nav)", "Y.willMove(Nav)", "Y.viewDidLoad",
        "B.viewWillDisappear", "Y.viewWillAppear", "Y.viewIsAppearing", "B.viewDidDisappear", "Y.viewDidAppear",
        "queued complete=false", "A.didMove(nil)", "B.didMove(nil)", "X.didMove(Nav)", "Y.didMove(Nav)",
        "G.willMove(Y)",
      ])
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfAnInteractivePopWaitsForIt_N7_R2() async throws {
    for decision in [InteractiveDecision.finish, .cancel] {
      let f = Fixture()
      let a = f.controller("A")
      let b = f.controller("B")
      let g = f.controller("G")
      let window = makeWindow(clock: ManualClock())
      let nav = NavigationController(name: "Nav", transitionDuration: .zero)
      try await window.setRootViewController(nav)
      try await nav.setViewControllers([a, b], animated: false)
      _ = f.log.take()
      let shown = decision == .finish ? a : b
      let armed = await arm(shown, on: "viewDidAppear", log: f.log) { try await shown.addChild(g) }
      try await nav.interactivePop { _ in decision }
      try await armed.finished()
      if decision == .finish {
        #expect(
          f.log.take() == [
            "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "B.viewDidDisappear",
            "A.viewDidAppear", "queued complete=false", "B.willMove(nil)", "B.didMove(nil)", "G.willMove(A)",
          ])
      } else {
        #expect(
          f.log.take() == [
            "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "A.viewWillDisappear",
            "A.viewDidDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "queued complete=false",
            "G.willMove(B)",
          ])
      }
      #expect(nav.checkInvariants().isEmpty)
    }
  }

  @Test func requestFromADidHookOfATabSwitchWaitsForIt_B2_R2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let g = f.controller("G")
    let window = makeWindow(clock: ManualClock())
    let tabs = TabBarController(name: "Tabs")
    try await window.setRootViewController(tabs)
    try await tabs.setViewControllers([a, b])
    _ = f.log.take()
    let armed = await arm(b, on: "viewDidAppear", log: f.log) { try await b.addChild(g) }
    try await tabs.select(1)
    f.log.append("select returned")
    try await armed.finished()
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear",
        "B.viewDidAppear", "queued complete=false", "G.willMove(B)", "select returned",
      ])
    #expect(tabs.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfASplitChangeWaitsForIt_S1_R2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let s = f.controller("S")
    let g = f.controller("G")
    let window = makeWindow(clock: ManualClock(), traits: TraitCollection(horizontalSizeClass: .compact))
    let split = SplitViewController(name: "Split")
    try await window.setRootViewController(split)
    try await split.setViewControllers(primary: p, secondary: s)
    _ = f.log.take()
    let armed = await arm(s, on: "viewDidAppear", log: f.log) { try await s.addChild(g) }
    try await split.show(.secondary)
    f.log.append("show returned")
    try await armed.finished()
    #expect(
      f.log.take() == [
        "S.viewDidLoad", "P.viewWillDisappear", "S.viewWillAppear", "S.viewIsAppearing", "P.viewDidDisappear",
        "S.viewDidAppear", "queued complete=false", "G.willMove(S)", "show returned",
      ])
    #expect(split.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfAPresentationWaitsForThePresenter_P1_P5() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c1 = f.controller("C1")
    let c2 = f.controller("C2")
    let window = try await f.onScreen(p)
    let armed = await arm(c1, on: "viewDidAppear", log: f.log) {
      try await c1.present(c2, style: .fullScreen, animated: false)
    }
    try await p.present(c1, style: .fullScreen, animated: false)
    try await armed.finished()
    #expect(
      f.log.take() == [
        "C1.viewDidLoad", "P.viewWillDisappear", "C1.viewWillAppear", "C1.viewIsAppearing", "C1.viewDidAppear",
        "queued complete=false", "P.viewDidDisappear", "C2.viewDidLoad", "C1.viewWillDisappear", "C2.viewWillAppear",
        "C2.viewIsAppearing", "C2.viewDidAppear", "C1.viewDidDisappear",
      ])
    #expect(c1.presentedViewController === c2)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfADismissalWaitsForIt_P1_P5() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let m = f.controller("M")
    let g = f.controller("G")
    let window = try await f.onScreen(p)
    try await p.present(m, style: .fullScreen, animated: false)
    _ = f.log.take()
    let armed = await arm(m, on: "viewDidDisappear", log: f.log) { try await m.addChild(g) }
    try await p.dismiss(animated: false)
    f.log.append("dismiss returned")
    try await armed.finished()
    #expect(
      f.log.take() == [
        "M.viewWillDisappear", "P.viewWillAppear", "P.viewIsAppearing", "M.viewDidDisappear",
        "queued complete=false", "P.viewDidAppear", "G.willMove(M)", "dismiss returned",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty && m.checkInvariants().isEmpty)
  }

  @Test func requestFromADidHookOfAnInteractiveDismissalWaitsForIt_P6_R2() async throws {
    for decision in [InteractiveDecision.finish, .cancel] {
      let f = Fixture()
      let p = f.controller("P")
      let s = f.controller("S")
      let g = f.controller("G")
      let window = makeWindow(clock: ManualClock())
      try await window.setRootViewController(p)
      try await p.present(s, style: .pageSheet, animated: false)
      _ = f.log.take()
      let hook = decision == .finish ? "viewDidDisappear" : "viewDidAppear"
      let armed = await arm(s, on: hook, log: f.log) { try await s.addChild(g) }
      // A gesture that went all the way (or not at all) leaves nothing to animate.
      let outcome = try await s.interactiveDismiss { progress in
        progress.update(decision == .finish ? 1 : 0)
        return decision
      }
      #expect(try await outcome.value == (decision == .finish ? .completed : .cancelled))
      try await armed.finished()
      if decision == .finish {
        #expect(
          f.log.take() == [
            "S.viewWillDisappear", "S.viewDidDisappear", "queued complete=false", "G.willMove(S)",
          ])
      } else {
        #expect(
          f.log.take() == [
            "S.viewWillDisappear", "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear",
            "queued complete=false", "G.willMove(S)",
          ])
      }
      #expect(p.checkInvariants().isEmpty && s.checkInvariants().isEmpty)
    }
  }

  @Test func requestFromADidHookOfABatchWaitsForTheBatch_A7_R2() async throws {
    let f = Fixture()
    let m = f.controller("M", forwards: false)
    let x = f.controller("X")
    let y = f.controller("Y")
    let g = f.controller("G")
    let window = try await f.onScreen(m)
    for child in [x, y] {
      try await m.addChild(child)
      try await m.view.addSubview(await child.view)
      await child.didMove(toParent: m)
    }
    _ = f.log.take()
    let armed = await arm(x, on: "viewDidAppear", log: f.log) { try await x.addChild(g) }
    var batch = AppearanceBatch()
    batch.appear(x)
    batch.appear(y)
    try await m.commit(batch)
    f.log.append("commit returned")
    try await armed.finished()
    #expect(
      f.log.take() == [
        "X.viewWillAppear", "Y.viewWillAppear", "X.viewIsAppearing", "Y.viewIsAppearing", "X.viewDidAppear",
        "queued complete=false", "Y.viewDidAppear", "G.willMove(X)", "commit returned",
      ])
    withExtendedLifetime(window) {}
    #expect(m.checkInvariants().isEmpty)
  }

  /// A navigation delegate is user code the transaction calls like a hook:
  /// its request onto the controller being shown waits for the push.
  @Test func requestFromADelegateCallbackWaitsForTheTransaction_N8_R2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let g = f.controller("G")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a], in: window)
    let delegate = RequestingNavigationDelegate(log: f.log) { shown in try await shown.addChild(g) }
    nav.delegate = delegate
    try await nav.push(b, animated: false)
    try await delegate.finished()
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "D.willShow(B)", "queued complete=false", "A.viewWillDisappear",
        "B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)",
        "D.didShow(B)", "G.willMove(B)",
      ])
    #expect(nav.checkInvariants().isEmpty)
  }

  /// A teardown hook's request onto its own, torn-down controller is
  /// refused (§8), not queued: nothing is left to run it on.
  @Test func requestFromATeardownHookIsRefused_V3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let g = f.controller("G")
    let window = try await f.onScreen(p)
    try await f.install(c, in: p)
    _ = await arm(c, on: "viewDidTearDown", log: f.log) { try await c.addChild(g) }
    try await window.tearDown()
    #expect(
      f.log.take() == [
        "P.viewWillDisappear", "C.viewWillDisappear", "P.viewDidDisappear", "C.viewDidDisappear",
        "C.viewDidTearDown", "refused \(ContainmentError.tornDown(c.node.id))", "P.viewDidTearDown",
      ])
    #expect(g.parent == nil && c.children.isEmpty)
  }
}

/// A navigation delegate whose first `willShow` asks the controller being
/// shown for a change, and logs both callbacks.
private actor RequestingNavigationDelegate: NavigationControllerDelegate {
  let log: HookLog
  let request: @Sendable (any ViewController) async throws -> TransactionHandle<Void>
  private var handle: TransactionHandle<Void>?

  init(log: HookLog, request: @escaping @Sendable (any ViewController) async throws -> TransactionHandle<Void>) {
    self.log = log
    self.request = request
  }

  func navigationController(
    _ navigationController: NavigationController, willShow viewController: any ViewController, animated: Bool
  ) async {
    log.append("D.willShow(\(viewController.node.name))")
    guard handle == nil else { return }
    do {
      let queued = try await request(viewController)
      log.append("queued complete=\(queued.isComplete)")
      handle = queued
    } catch {
      log.append("refused \(error)")
    }
  }

  func navigationController(
    _ navigationController: NavigationController, didShow viewController: any ViewController, animated: Bool
  ) async {
    log.append("D.didShow(\(viewController.node.name))")
  }

  /// Waits for the request's outcome; fails the test if it was never made.
  func finished() async throws {
    let handle = try #require(handle, "willShow never ran")
    try await handle.value
  }
}
