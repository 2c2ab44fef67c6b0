import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// §5 N1–N8: the navigation stack.
@Suite(.timeLimit(.minutes(1)))
struct NavigationRulesTests {
  @Test func initialRootOnScreenOrdersHooks_N1() async throws {
    let f = Fixture()
    let y = f.controller("Y")
    let window = Window()
    let nav = NavigationController(name: "Nav")
    try await window.setRootViewController(nav)
    try await nav.setViewControllers([y], animated: false)
    #expect(
      f.log.take() == [
        "Y.willMove(Nav)", "Y.viewDidLoad", "Y.viewWillAppear", "Y.viewIsAppearing", "Y.viewDidAppear",
        "Y.didMove(Nav)",
      ])
    #expect(names(nav.viewControllers) == ["Y"])
    #expect(
      y.viewIfLoaded?.frame
        == Rect(x: 0, y: NavigationBarState.height, width: 1024, height: 768 - NavigationBarState.height))
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func pushOntoAnEmptyStackOnScreenIsTheInitialRoot_N1() async throws {
    let f = Fixture()
    let y = f.controller("Y")
    let window = Window()
    let nav = NavigationController(name: "Nav")
    try await window.setRootViewController(nav)
    try await nav.push(y, animated: false)
    #expect(
      f.log.take() == [
        "Y.willMove(Nav)", "Y.viewDidLoad", "Y.viewWillAppear", "Y.viewIsAppearing", "Y.viewDidAppear",
        "Y.didMove(Nav)",
      ])
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func stackSetOffScreenIsInstalledWhenTheNavigationViewLoads_N1() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let y = f.controller("Y")
    let nav = NavigationController(name: "Nav")
    try await nav.setViewControllers([a, y], animated: false)
    #expect(f.log.take() == ["A.willMove(Nav)", "Y.willMove(Nav)", "A.didMove(Nav)", "Y.didMove(Nav)"])
    #expect(!y.isViewLoaded)
    let window = Window()
    try await window.setRootViewController(nav)
    #expect(f.log.take() == ["Y.viewDidLoad", "Y.viewWillAppear", "Y.viewIsAppearing", "Y.viewDidAppear"])
    #expect(!a.isViewLoaded)
    #expect(
      y.viewIfLoaded?.frame
        == Rect(x: 0, y: NavigationBarState.height, width: 1024, height: 768 - NavigationBarState.height))
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func pushOrdersHooks_N2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = makeWindow(clock: clock)
    let nav = try await f.onScreenNavigation([a], in: window)
    async let pushed = nav.push(b, animated: true)
    await clock.sleepers(atLeast: 1)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
      ])
    #expect(names(nav.viewControllers) == ["A", "B"])
    clock.advance(by: nav.transitionDuration)
    #expect(try await pushed.value == .completed)
    #expect(f.log.take() == ["A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)"])
    #expect(a.viewIfLoaded?.superview == nil)
    #expect(a.parent === nav)
    #expect(b.viewIfLoaded?.window === window)
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func popOrdersHooksAndUnlinksAtDecisionTime_N3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = makeWindow(clock: clock)
    let nav = try await f.onScreenNavigation([a], in: window)
    try await nav.push(b, animated: false)
    _ = f.log.take()
    let log = f.log
    await b.setOnHook { hook in
      guard hook == "viewWillDisappear" else { return }
      log.append("stack=\(names(nav.viewControllers)) movingFromParent=\(b.node.isMovingFromParent)")
    }
    async let popped = nav.pop(animated: true)
    await clock.sleepers(atLeast: 1)
    #expect(
      f.log.take() == [
        "B.willMove(nil)", "B.viewWillDisappear", "stack=[\"A\"] movingFromParent=true",
        "A.viewWillAppear", "A.viewIsAppearing",
      ])
    clock.advance(by: nav.transitionDuration)
    #expect(try await popped.value === b)
    #expect(f.log.take() == ["B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)"])
    #expect(names(nav.viewControllers) == ["A"])
    #expect(b.parent == nil)
    #expect(b.viewIfLoaded?.superview == nil)
    #expect(!b.node.isMovingFromParent)
    #expect(a.viewIfLoaded?.window === window)
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func popToRootGivesAppearanceHooksOnlyToTheEnds_N4() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let d = f.controller("D")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    for controller in [b, c, d] { try await nav.push(controller, animated: false) }
    _ = f.log.take()
    let popped = try await nav.popToRoot(animated: false).value
    #expect(names(popped) == ["B", "C", "D"])
    #expect(
      f.log.take() == [
        "B.willMove(nil)", "C.willMove(nil)", "D.willMove(nil)",
        "D.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
        "D.viewDidDisappear", "A.viewDidAppear",
        "B.didMove(nil)", "C.didMove(nil)", "D.didMove(nil)",
      ])
    #expect(names(nav.viewControllers) == ["A"])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func popToGivesAppearanceHooksOnlyToTheEnds_N4() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let d = f.controller("D")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b, c, d], in: window)
    let popped = try await nav.popTo(b, animated: false).value
    #expect(names(popped) == ["C", "D"])
    #expect(
      f.log.take() == [
        "C.willMove(nil)", "D.willMove(nil)",
        "B.viewDidLoad", "D.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "D.viewDidDisappear", "B.viewDidAppear",
        "C.didMove(nil)", "D.didMove(nil)",
      ])
    #expect(names(nav.viewControllers) == ["A", "B"])
    #expect(try await nav.popTo(b, animated: false).value.isEmpty)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func setViewControllersGivesAppearanceHooksOnlyToOldAndNewTop_N5() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let x = f.controller("X")
    let y = f.controller("Y")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    try await nav.setViewControllers([x, y], animated: false)
    #expect(
      f.log.take() == [
        "A.willMove(nil)", "B.willMove(nil)", "X.willMove(Nav)", "Y.willMove(Nav)",
        "Y.viewDidLoad", "B.viewWillDisappear", "Y.viewWillAppear", "Y.viewIsAppearing",
        "B.viewDidDisappear", "Y.viewDidAppear",
        "A.didMove(nil)", "B.didMove(nil)", "X.didMove(Nav)", "Y.didMove(Nav)",
      ])
    #expect(names(nav.viewControllers) == ["X", "Y"])
    #expect(a.parent == nil && b.parent == nil)
    #expect(!x.isViewLoaded)
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func setViewControllersKeepingEntriesGivesThemNothing_N5() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let y = f.controller("Y")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    try await nav.setViewControllers([a, y, b], animated: false)
    #expect(f.log.take() == ["Y.willMove(Nav)", "Y.didMove(Nav)"])
    #expect(names(nav.viewControllers) == ["A", "Y", "B"])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func pushDuringARunningPushIsQueuedAndBalanced_N6() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let window = makeWindow(clock: clock)
    let nav = try await f.onScreenNavigation([a], in: window)
    async let first = nav.push(b, animated: true)
    await clock.sleepers(atLeast: 1)
    let requests = IdleExecutor()
    let second = Task(executorPreference: requests) { try await nav.push(c, animated: true).value }
    await requests.idle()
    #expect(nav.node.queue.pendingCount == 1)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
      ])
    clock.advance(by: nav.transitionDuration)
    #expect(try await first.value == .completed)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: nav.transitionDuration)
    #expect(try await second.value == .completed)
    #expect(
      f.log.take() == [
        "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)",
        "C.willMove(Nav)", "C.viewDidLoad", "B.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
        "B.viewDidDisappear", "C.viewDidAppear", "C.didMove(Nav)",
      ])
    #expect(names(nav.viewControllers) == ["A", "B", "C"])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func pushFromAHookIsQueuedBehindTheRunningPush_N6() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    let log = f.log
    await b.setOnHook { hook in
      guard hook == "viewWillAppear" else { return }
      do {
        let handle = try await nav.push(c, animated: false)
        log.append("queued complete=\(handle.isComplete)")
      } catch {
        log.append("push failed: \(error)")
      }
    }
    try await nav.push(b, animated: false)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "queued complete=false",
        "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)",
        "C.willMove(Nav)", "C.viewDidLoad", "B.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
        "B.viewDidDisappear", "C.viewDidAppear", "C.didMove(Nav)",
      ])
    #expect(names(nav.viewControllers) == ["A", "B", "C"])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func interactivePopStartsThenFinishes_N7() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = makeWindow(clock: clock)
    let nav = try await f.onScreenNavigation([a, b], in: window)
    _ = await a.view  // loaded earlier, as after a real push
    _ = f.log.take()
    let gesture = Gate()
    let stackDuringGesture = Locked<[String]>([])
    async let outcome = nav.interactivePop { progress in
      progress.update(0.25)
      stackDuringGesture.withLock { $0 = names(nav.viewControllers) }
      await gesture.wait()
      progress.update(0.5)
      return .finish
    }
    await gesture.waiters(atLeast: 1)
    #expect(f.log.take() == ["B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing"])
    #expect(stackDuringGesture.withLock { $0 } == ["A", "B"])
    gesture.open()
    await clock.sleepers(atLeast: 1)
    clock.advance(by: nav.transitionDuration * 0.5)
    #expect(try await outcome.value == .completed)
    #expect(f.log.take() == ["B.viewDidDisappear", "A.viewDidAppear", "B.willMove(nil)", "B.didMove(nil)"])
    #expect(names(nav.viewControllers) == ["A"])
    #expect(b.parent == nil)
    #expect(b.viewIfLoaded?.superview == nil)
    #expect(a.viewIfLoaded?.window === window)
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func interactivePopCancelledRestoresTheStackAndDetachesTheRevealedView_N7() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = makeWindow(clock: clock)
    let nav = try await f.onScreenNavigation([a, b], in: window)
    let gesture = Gate()
    async let outcome = nav.interactivePop { progress in
      progress.update(0.4)
      await gesture.wait()
      return .cancel
    }
    await gesture.waiters(atLeast: 1)
    #expect(f.log.take() == ["A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing"])
    #expect(a.viewIfLoaded?.window === window)
    gesture.open()
    await clock.sleepers(atLeast: 1)
    clock.advance(by: nav.transitionDuration * 0.4)
    #expect(try await outcome.value == .cancelled)
    #expect(
      f.log.take() == [
        "A.viewWillDisappear", "A.viewDidDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear",
      ])
    #expect(names(nav.viewControllers) == ["A", "B"])
    #expect(a.viewIfLoaded?.superview == nil)
    #expect(b.viewIfLoaded?.window === window)
    #expect(a.node.appearanceState == .disappeared)
    #expect(b.node.appearanceState == .appeared)
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func interactivelyPoppedControllerIsMovingFromParentFromTheGesturesStart_N7_A5() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = makeWindow(clock: clock)
    let nav = try await f.onScreenNavigation([a, b], in: window)
    _ = await a.view
    _ = f.log.take()
    let log = f.log
    await b.setOnHook { hook in
      log.append("\(hook) movingFromParent=\(b.node.isMovingFromParent)")
    }
    let gesture = Gate()
    async let cancelled = nav.interactivePop { _ in
      await gesture.wait()
      return .cancel
    }
    await gesture.waiters(atLeast: 1)
    gesture.open()
    #expect(try await cancelled.value == .cancelled)
    let second = Gate()
    async let finished = nav.interactivePop { progress in
      await second.wait()
      progress.update(1)
      return .finish
    }
    await second.waiters(atLeast: 1)
    second.open()
    #expect(try await finished.value == .completed)
    #expect(
      f.log.take() == [
        "B.viewWillDisappear", "viewWillDisappear movingFromParent=true", "A.viewWillAppear", "A.viewIsAppearing",
        "A.viewWillDisappear", "A.viewDidDisappear",
        "B.viewWillAppear", "viewWillAppear movingFromParent=false",
        "B.viewIsAppearing", "viewIsAppearing movingFromParent=false",
        "B.viewDidAppear", "viewDidAppear movingFromParent=false",
        "B.viewWillDisappear", "viewWillDisappear movingFromParent=true", "A.viewWillAppear", "A.viewIsAppearing",
        "B.viewDidDisappear", "viewDidDisappear movingFromParent=true", "A.viewDidAppear",
        "B.willMove(nil)", "willMove movingFromParent=true",
        "B.didMove(nil)", "didMove movingFromParent=true",
      ])
    #expect(names(nav.viewControllers) == ["A"])
    #expect(!b.node.isMovingFromParent)
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func interactivePopDriverThatThrowsRollsBack_N7() async throws {
    struct GestureFailed: Error {}
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    _ = await a.view
    _ = f.log.take()
    await #expect(throws: GestureFailed.self) {
      try await nav.interactivePop { _ in throw GestureFailed() }
    }
    #expect(
      f.log.take() == [
        "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
        "A.viewWillDisappear", "A.viewDidDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear",
      ])
    #expect(names(nav.viewControllers) == ["A", "B"])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func pushRequestedByTheGestureDriverRunsAfterTheInteractivePop_N6_N7() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    _ = await a.view
    _ = f.log.take()
    let log = f.log
    try await nav.interactivePop { progress in
      let handle = try await nav.push(c, animated: false)
      log.append("queued complete=\(handle.isComplete)")
      progress.update(1)
      return .finish
    }
    #expect(
      f.log.take() == [
        "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "queued complete=false",
        "B.viewDidDisappear", "A.viewDidAppear", "B.willMove(nil)", "B.didMove(nil)",
        "C.willMove(Nav)", "C.viewDidLoad", "A.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
        "A.viewDidDisappear", "C.viewDidAppear", "C.didMove(Nav)",
      ])
    #expect(names(nav.viewControllers) == ["A", "C"])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func delegateHearsWillShowBeforeAndDidShowAfter_N8() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    let delegate = RecordingNavigationDelegate(log: f.log)
    nav.delegate = delegate
    try await nav.push(b, animated: false)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "D.willShow(B)",
        "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)", "D.didShow(B)",
      ])
    try await nav.pop(animated: false)
    #expect(
      f.log.take() == [
        "B.willMove(nil)", "D.willShow(A)", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
        "B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)", "D.didShow(A)",
      ])
    withExtendedLifetime(window) {}
  }

  @Test func delegateRequestIsQueuedBehindTheTransitionItHears_N8_R2() async throws {
    actor PushingDelegate: NavigationControllerDelegate {
      let log: HookLog
      let next: any ViewController
      var pushed = false
      init(log: HookLog, next: any ViewController) {
        self.log = log
        self.next = next
      }
      func navigationController(
        _ navigationController: NavigationController, willShow viewController: any ViewController, animated: Bool
      ) async {
        log.append("D.willShow(\(viewController.node.name))")
        guard !pushed else { return }
        pushed = true
        do {
          let handle = try await navigationController.push(next, animated: false)
          log.append("D.queued complete=\(handle.isComplete)")
        } catch {
          log.append("D.push failed: \(error)")
        }
      }
    }
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    let delegate = PushingDelegate(log: f.log, next: c)
    nav.delegate = delegate
    try await nav.push(b, animated: false)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "D.willShow(B)", "D.queued complete=false",
        "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)",
        "C.willMove(Nav)", "C.viewDidLoad", "D.willShow(C)",
        "B.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
        "B.viewDidDisappear", "C.viewDidAppear", "C.didMove(Nav)",
      ])
    #expect(names(nav.viewControllers) == ["A", "B", "C"])
    withExtendedLifetime(window) {}
  }

  @Test func delegateIsHeldWeakly_N8() async throws {
    let nav = NavigationController(name: "Nav")
    do {
      let delegate = RecordingNavigationDelegate(log: HookLog())
      nav.delegate = delegate
      #expect(nav.delegate === delegate)
    }
    #expect(nav.delegate == nil)
  }

  @Test func navigationBarFollowsTheTopOfTheStack_N8() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    a.setNavigationItem(NavigationItem(title: "Inbox", backButtonTitle: "Mail"))
    b.updateNavigationItem { $0.title = "Thread" }
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    #expect(nav.navigationBar.title == "Inbox")
    #expect(nav.navigationBar.backTitle == nil)
    try await nav.push(b, animated: false)
    #expect(nav.navigationBar.title == "Thread")
    #expect(nav.navigationBar.backTitle == "Mail")
    try await nav.push(c, animated: false)
    #expect(nav.navigationBar.title == nil)
    #expect(nav.navigationBar.backTitle == "Thread")
    nav.setNavigationBarHidden(true)
    #expect(nav.navigationBar.isHidden)
    #expect(c.viewIfLoaded?.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
    try await nav.popToRoot(animated: false)
    #expect(nav.navigationBar.items == [NavigationItem(title: "Inbox", backButtonTitle: "Mail")])
    withExtendedLifetime(window) {}
  }

  @Test func cancellingAnAnimatedPushFinishesItInterrupted_T4() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = makeWindow(clock: clock)
    let nav = try await f.onScreenNavigation([a], in: window)
    let push = Task { try await nav.push(b, animated: true).value }
    await clock.sleepers(atLeast: 1)
    push.cancel()
    #expect(try await push.value == .interrupted)
    #expect(
      f.log.take() == [
        "B.willMove(Nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(Nav)",
      ])
    #expect(names(nav.viewControllers) == ["A", "B"])
    withExtendedLifetime(window) {}
    #expect(nav.checkInvariants().isEmpty)
  }
}
