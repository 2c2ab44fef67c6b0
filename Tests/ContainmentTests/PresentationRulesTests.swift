import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// §10 P1–P7: modal presentation.
@Suite(.timeLimit(.minutes(1)))
struct PresentationRulesTests {
  /// P on screen in a window on a manual clock, with child C installed.
  private func presenter(_ f: Fixture, clock: ManualClock) async throws -> (
    Window, RecordingController, RecordingController
  ) {
    let p = f.controller("P")
    let c = f.controller("C")
    let window = makeWindow(clock: clock)
    try await window.setRootViewController(p)
    try await f.install(c, in: p)
    return (window, p, c)
  }

  @Test func fullScreenPresentAndDismissOrderHooks_P1() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, _) = try await presenter(f, clock: clock)
    let m = f.controller("M")
    async let presented = p.present(m, style: .fullScreen, animated: true)
    await clock.sleepers(atLeast: 1)
    #expect(
      f.log.all == [
        "M.viewDidLoad", "P.viewWillDisappear", "C.viewWillDisappear", "M.viewWillAppear", "M.viewIsAppearing",
      ])
    clock.advance(by: p.presentationDuration)
    #expect(try await presented.value == .completed)
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "P.viewWillDisappear", "C.viewWillDisappear", "M.viewWillAppear", "M.viewIsAppearing",
        "M.viewDidAppear", "P.viewDidDisappear", "C.viewDidDisappear",
      ])
    #expect(p.presentedViewController === m && m.presentingViewController === p)
    #expect(m.modalPresentationStyle == .fullScreen)
    #expect(p.viewIfLoaded?.window == nil && m.viewIfLoaded?.window === window)
    #expect(p.checkInvariants().isEmpty)

    async let dismissed = m.dismiss(animated: true)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: p.presentationDuration)
    #expect(try await dismissed.value == .completed)
    #expect(
      f.log.take() == [
        "M.viewWillDisappear", "P.viewWillAppear", "C.viewWillAppear", "P.viewIsAppearing", "C.viewIsAppearing",
        "M.viewDidDisappear", "P.viewDidAppear", "C.viewDidAppear",
      ])
    #expect(p.presentedViewController == nil && m.presentingViewController == nil && m.modalPresentationStyle == nil)
    #expect(p.viewIfLoaded?.window === window && m.viewIfLoaded?.window == nil)
    #expect(window.rootViewController === p)
    #expect(p.checkInvariants().isEmpty && m.checkInvariants().isEmpty)
  }

  @Test func sheetPresentationLeavesThePresenterAlone_P2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, _) = try await presenter(f, clock: clock)
    let s = f.controller("S")
    try await p.present(s, style: .pageSheet, animated: false)
    #expect(f.log.take() == ["S.viewDidLoad", "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear"])
    #expect(s.viewIfLoaded?.frame == Rect(x: 0, y: 44, width: 1024, height: 768 - 44))
    #expect(p.viewIfLoaded?.window === window)
    try await s.dismiss(animated: false)
    #expect(f.log.take() == ["S.viewWillDisappear", "S.viewDidDisappear"])
    #expect(p.presentedViewController == nil)
    #expect(p.checkInvariants().isEmpty && s.checkInvariants().isEmpty)
  }

  @Test func beingPresentedAndDismissedAreTrueOnlyDuringTheirHooks_P3() async throws {
    let f = Fixture()
    let (window, p, _) = try await presenter(f, clock: ManualClock())
    let m = f.controller("M")
    let log = f.log
    await m.setOnHook { hook in
      log.append("\(hook) presented=\(m.isBeingPresented) dismissed=\(m.isBeingDismissed)")
    }
    try await p.present(m, style: .overFullScreen, animated: false)
    #expect(!m.isBeingPresented)
    try await p.dismiss(animated: false)
    #expect(!m.isBeingDismissed)
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "viewDidLoad presented=true dismissed=false",
        "M.viewWillAppear", "viewWillAppear presented=true dismissed=false",
        "M.viewIsAppearing", "viewIsAppearing presented=true dismissed=false",
        "M.viewDidAppear", "viewDidAppear presented=true dismissed=false",
        "M.viewWillDisappear", "viewWillDisappear presented=false dismissed=true",
        "M.viewDidDisappear", "viewDidDisappear presented=false dismissed=true",
      ])
    withExtendedLifetime(window) {}
  }

  /// P3 across an animated full-screen presentation: the flags hold through
  /// the animation (read while it runs), belong to the presented controller
  /// only (the presenter's own hooks of the same change see them false), and
  /// are false once the change is over.
  @Test func beingPresentedAndDismissedHoldThroughTheAnimationAndNeverOnThePresenter_P3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, _) = try await presenter(f, clock: clock)
    let m = f.controller("M")
    let log = f.log
    for controller in [p, m] {
      await controller.setOnHook { hook in
        log.append("\(hook) presented=\(controller.isBeingPresented) dismissed=\(controller.isBeingDismissed)")
      }
    }
    func flags() -> [Bool] { [m.isBeingPresented, m.isBeingDismissed, p.isBeingPresented, p.isBeingDismissed] }
    async let presented = p.present(m, style: .fullScreen, animated: true)
    await clock.sleepers(atLeast: 1)
    #expect(flags() == [true, false, false, false])
    clock.advance(by: p.presentationDuration)
    #expect(try await presented.value == .completed)
    #expect(flags() == [false, false, false, false])
    async let dismissed = m.dismiss(animated: true)
    await clock.sleepers(atLeast: 1)
    #expect(flags() == [false, true, false, false])
    clock.advance(by: p.presentationDuration)
    #expect(try await dismissed.value == .completed)
    #expect(flags() == [false, false, false, false])
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "viewDidLoad presented=true dismissed=false",
        "P.viewWillDisappear", "viewWillDisappear presented=false dismissed=false", "C.viewWillDisappear",
        "M.viewWillAppear", "viewWillAppear presented=true dismissed=false",
        "M.viewIsAppearing", "viewIsAppearing presented=true dismissed=false",
        "M.viewDidAppear", "viewDidAppear presented=true dismissed=false",
        "P.viewDidDisappear", "viewDidDisappear presented=false dismissed=false", "C.viewDidDisappear",
        "M.viewWillDisappear", "viewWillDisappear presented=false dismissed=true",
        "P.viewWillAppear", "viewWillAppear presented=false dismissed=false", "C.viewWillAppear",
        "P.viewIsAppearing", "viewIsAppearing presented=false dismissed=false", "C.viewIsAppearing",
        "M.viewDidDisappear", "viewDidDisappear presented=false dismissed=true",
        "P.viewDidAppear", "viewDidAppear presented=false dismissed=false", "C.viewDidAppear",
      ])
    withExtendedLifetime(window) {}
  }

  @Test func dismissingFromTheBottomOfAChainGivesHooksOnlyToTheEnds_P4() async throws {
    let f = Fixture()
    let (window, p, _) = try await presenter(f, clock: ManualClock())
    let a = f.controller("A")
    let b = f.controller("B")
    let top = f.controller("Top")
    try await p.present(a, style: .fullScreen, animated: false)
    try await a.present(b, style: .fullScreen, animated: false)
    try await b.present(top, style: .formSheet, animated: false)
    _ = f.log.take()
    var events = p.events().makeAsyncIterator()
    _ = await events.next()
    try await p.dismiss(animated: false)
    #expect(
      f.log.take() == [
        "Top.viewWillDisappear", "P.viewWillAppear", "C.viewWillAppear", "P.viewIsAppearing", "C.viewIsAppearing",
        "Top.viewDidDisappear", "P.viewDidAppear", "C.viewDidAppear",
      ])
    var kinds: [LifecycleEvent.Kind] = []
    for _ in 0..<4 { kinds.append(await events.next()?.kind ?? .terminated) }
    #expect(
      kinds == [
        .viewWillAppear(animated: false), .viewIsAppearing(animated: false), .viewDidAppear(animated: false),
        .dismissed(a.node.id, style: .fullScreen, reason: .dismissed),
      ])
    for controller in [a, b, top] {
      #expect(controller.presentingViewController == nil && controller.presentedViewController == nil)
      #expect(controller.node.appearanceState == .disappeared && controller.viewIfLoaded?.window == nil)
    }
    #expect(p.presentedViewController == nil)
    #expect(window.rootView.subviews.count == 1)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func dismissOnAPresentedControllerDismissesItFromItsPresenter_P4() async throws {
    let f = Fixture()
    let (window, p, _) = try await presenter(f, clock: ManualClock())
    let a = f.controller("A")
    let b = f.controller("B")
    try await p.present(a, style: .pageSheet, animated: false)
    try await a.present(b, style: .pageSheet, animated: false)
    _ = f.log.take()
    try await b.dismiss(animated: false)
    #expect(f.log.take() == ["B.viewWillDisappear", "B.viewDidDisappear"])
    #expect(a.presentedViewController == nil && p.presentedViewController === a)
    try await a.dismiss(animated: false)
    #expect(f.log.take() == ["A.viewWillDisappear", "A.viewDidDisappear"])
    #expect(p.presentedViewController == nil)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func dismissRequestedDuringAPresentationIsQueuedBehindIt_P5() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, _) = try await presenter(f, clock: clock)
    let m = f.controller("M")
    async let presented = p.present(m, style: .pageSheet, animated: true)
    await clock.sleepers(atLeast: 1)
    async let dismissed = p.dismiss(animated: false)
    await p.node.queue.pending(atLeast: 1)
    #expect(f.log.all == ["M.viewDidLoad", "M.viewWillAppear", "M.viewIsAppearing"])
    clock.advance(by: p.presentationDuration)
    _ = try await presented.value
    _ = try await dismissed.value
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear",
        "M.viewWillDisappear", "M.viewDidDisappear",
      ])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func presentFromAHookIsQueuedBehindTheRunningTransaction_P5_R2() async throws {
    let f = Fixture()
    let (window, p, c) = try await presenter(f, clock: ManualClock())
    let m = f.controller("M")
    let queued = Locked<TransactionHandle<TransitionOutcome>?>(nil)
    let log = f.log
    await m.setOnHook { hook in
      guard hook == "viewWillAppear" else { return }
      let handle = try? await p.dismiss(animated: false)
      log.append("dismiss queued complete=\(handle?.isComplete ?? true)")
      queued.withLock { $0 = handle }
    }
    try await p.present(m, style: .fullScreen, animated: false)
    let handle = try #require(queued.withLock { $0 })
    #expect(try await handle.value == .completed)
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "P.viewWillDisappear", "C.viewWillDisappear", "M.viewWillAppear",
        "dismiss queued complete=false",
        "M.viewIsAppearing", "M.viewDidAppear", "P.viewDidDisappear", "C.viewDidDisappear",
        "M.viewWillDisappear", "P.viewWillAppear", "C.viewWillAppear", "P.viewIsAppearing", "C.viewIsAppearing",
        "M.viewDidDisappear", "P.viewDidAppear", "C.viewDidAppear",
      ])
    withExtendedLifetime((window, c)) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func cancellingAnAnimatedPresentationFinishesItInterrupted_P5_T4() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, _) = try await presenter(f, clock: clock)
    let m = f.controller("M")
    let task = Task { try await p.present(m, style: .pageSheet, animated: true).value }
    await clock.sleepers(atLeast: 1)
    task.cancel()
    #expect(try await task.value == .interrupted)
    #expect(f.log.take() == ["M.viewDidLoad", "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear"])
    #expect(m.node.appearanceState == .appeared && p.presentedViewController === m)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func presentingFromAChildOnAStackLeavesTheStackAlone_P7() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let m = f.controller("M")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a], in: window)
    _ = f.log.take()
    var tree = nav.treeEvents().makeAsyncIterator()
    _ = await tree.next()
    try await a.present(m, style: .pageSheet, animated: false)
    #expect(f.log.take() == ["M.viewDidLoad", "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear"])
    #expect(m.presentingViewController === a)
    #expect(names(nav.viewControllers) == ["A"])
    var paths: [String] = []
    for _ in 0..<5 { paths.append(await tree.next().map { "\($0.path) \($0.kind.name)" } ?? "end") }
    #expect(
      paths == [
        "Nav/A presented", "Nav/A/M viewDidLoad", "Nav/A/M viewWillAppear", "Nav/A/M viewIsAppearing",
        "Nav/A/M viewDidAppear",
      ])
    #expect(nav.checkInvariants().isEmpty)
  }

  @Test func presentationMisuseThrowsAndChangesNothing_P8() async throws {
    let f = Fixture()
    let (window, p, c) = try await presenter(f, clock: ManualClock())
    let m = f.controller("M")
    let x = f.controller("X")
    let offScreen = f.controller("Off")
    try await p.present(m, style: .pageSheet, animated: false)
    _ = f.log.take()
    let before = snapshot(p)
    await #expect(throws: ContainmentError.cannotPresentSelf(m.node.id)) { try await m.present(m, animated: false) }
    await #expect(throws: ContainmentError.hasParent(c.node.id)) { try await m.present(c, animated: false) }
    await #expect(throws: ContainmentError.alreadyPresented(m.node.id)) { try await c.present(m, animated: false) }
    await #expect(throws: ContainmentError.alreadyPresented(p.node.id)) { try await m.present(p, animated: false) }
    await #expect(throws: ContainmentError.presenterNotInWindow(offScreen.node.id)) {
      try await offScreen.present(x, animated: false)
    }
    await #expect(throws: ContainmentError.alreadyPresenting(presenter: p.node.id, presented: m.node.id)) {
      try await p.present(x, animated: false)
    }
    #expect(f.log.take() == [])
    #expect(snapshot(p) == before)
    #expect(p.presentedViewController === m && x.presentingViewController == nil)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func dismissWithNothingPresentedIsAnIgnoredCall_P8() async throws {
    let f = Fixture()
    let (window, p, c) = try await presenter(f, clock: ManualClock())
    var events = c.events().makeAsyncIterator()
    _ = await events.next()
    let before = snapshot(p)
    try await c.dismiss(animated: false)
    #expect(await events.next()?.kind == .callIgnored(.nothingToDismiss))
    #expect(f.log.take() == [])
    #expect(snapshot(p) == before)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func aDismissedTreeIsReleased_P4() async throws {
    let f = Fixture()
    let (window, p, _) = try await presenter(f, clock: ManualClock())
    weak var weakM: RecordingController?
    do {
      let m = f.controller("M")
      weakM = m
      try await p.present(m, style: .fullScreen, animated: false)
      try await m.dismiss(animated: false)
    }
    settleReleases()
    #expect(weakM == nil)
    withExtendedLifetime(window) {}
  }

  @Test func replacingTheWindowsRootTakesItsPresentationsAlong_P4() async throws {
    let f = Fixture()
    let (window, p, _) = try await presenter(f, clock: ManualClock())
    let m = f.controller("M")
    try await p.present(m, style: .overFullScreen, animated: false)
    _ = f.log.take()
    try await window.setRootViewController(nil)
    #expect(
      f.log.take() == [
        "M.viewWillDisappear", "P.viewWillDisappear", "C.viewWillDisappear",
        "M.viewDidDisappear", "P.viewDidDisappear", "C.viewDidDisappear",
      ])
    #expect(p.presentedViewController == nil && m.presentingViewController == nil)
    #expect(window.rootView.subviews.isEmpty)
    #expect(p.checkInvariants().isEmpty && m.checkInvariants().isEmpty)
  }

  /// A present that waited for its presenter's child to finish dismissing
  /// the very controller it presents: the dismissed tree left with that wait
  /// counted in it, and the present must not then wait for its own count.
  @Test func presentingWhatAChildIsStillDismissingWaitsForTheDismissalOnly_P5() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, c) = try await presenter(f, clock: clock)
    let m = f.controller("M")
    try await c.present(m, style: .pageSheet, animated: false)
    async let dismissed = c.dismiss(animated: true)
    await clock.sleepers(atLeast: 1)
    async let presented = p.present(m, style: .pageSheet, animated: false)
    await p.node.hierarchy.waiters(atLeast: 1)
    #expect(
      f.log.all == ["M.viewDidLoad", "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear", "M.viewWillDisappear"])
    clock.advance(by: c.presentationDuration)
    #expect(try await dismissed.value == .completed)
    #expect(try await presented.value == .completed)
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear",
        "M.viewWillDisappear", "M.viewDidDisappear",
        "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear",
      ])
    #expect(p.presentedViewController === m && m.presentingViewController === p && c.presentedViewController == nil)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty && m.checkInvariants().isEmpty)
  }
}

/// P6: interactive dismissal of a sheet.
@Suite(.timeLimit(.minutes(1)))
struct InteractiveDismissalTests {
  private actor Delegate: PresentationControllerDelegate {
    let log: HookLog
    let allows: Bool
    init(log: HookLog, allows: Bool = true) {
      self.log = log
      self.allows = allows
    }
    func presentationControllerShouldDismiss(_ presented: any ViewController) async -> Bool {
      log.append("D.shouldDismiss=\(allows)")
      return allows
    }
    func presentationControllerWillDismiss(_ presented: any ViewController) async { log.append("D.willDismiss") }
    func presentationControllerDidDismiss(_ presented: any ViewController) async { log.append("D.didDismiss") }
    func presentationControllerDidAttemptToDismiss(_ presented: any ViewController) async { log.append("D.didAttempt") }
  }

  private actor ModalSheet: ViewController {
    nonisolated let node = ControllerNode(name: "Modal")
    nonisolated var isModalInPresentation: Bool { true }
  }

  @Test func interactiveDismissalStartsThenFinishes_P6() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let p = f.controller("P")
    let s = f.controller("S")
    let window = makeWindow(clock: clock)
    try await window.setRootViewController(p)
    try await p.present(s, style: .pageSheet, animated: false)
    let delegate = Delegate(log: f.log)
    s.presentationControllerDelegate = delegate
    _ = f.log.take()
    let gesture = Gate()
    async let outcome = s.interactiveDismiss { progress in
      progress.update(0.5)
      await gesture.wait()
      return .finish
    }
    await gesture.waiters(atLeast: 1)
    #expect(f.log.all == ["D.shouldDismiss=true", "S.viewWillDisappear", "D.willDismiss"])
    #expect(s.isBeingDismissed)
    gesture.open()
    await clock.sleepers(atLeast: 1)
    clock.advance(by: s.presentationDuration * 0.5)
    #expect(try await outcome.value == .completed)
    #expect(
      f.log.take() == [
        "D.shouldDismiss=true", "S.viewWillDisappear", "D.willDismiss", "S.viewDidDisappear", "D.didDismiss",
      ])
    #expect(p.presentedViewController == nil && s.presentingViewController == nil && !s.isBeingDismissed)
    #expect(s.viewIfLoaded?.window == nil)
    withExtendedLifetime((window, delegate)) {}
    #expect(p.checkInvariants().isEmpty && s.checkInvariants().isEmpty)
  }

  @Test func cancelledInteractiveDismissalKeepsTheSheet_P6() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let p = f.controller("P")
    let s = f.controller("S")
    let window = makeWindow(clock: clock)
    try await window.setRootViewController(p)
    try await p.present(s, style: .formSheet, animated: false)
    _ = f.log.take()
    let gesture = Gate()
    async let outcome = s.interactiveDismiss { progress in
      progress.update(0.25)
      await gesture.wait()
      return .cancel
    }
    await gesture.waiters(atLeast: 1)
    gesture.open()
    await clock.sleepers(atLeast: 1)
    clock.advance(by: s.presentationDuration * 0.25)
    #expect(try await outcome.value == .cancelled)
    #expect(f.log.take() == ["S.viewWillDisappear", "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear"])
    #expect(p.presentedViewController === s && s.viewIfLoaded?.window === window)
    #expect(s.node.appearanceState == .appeared && !s.isBeingDismissed)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func modalSheetRefusesInteractiveDismissalAndTheDelegateHearsTheAttempt_P6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let s = ModalSheet()
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(p)
    try await p.present(s, style: .pageSheet, animated: false)
    let delegate = Delegate(log: f.log)
    s.presentationControllerDelegate = delegate
    _ = f.log.take()
    let before = snapshot(p)
    let ran = Locked(false)
    let outcome = try await s.interactiveDismiss { _ in
      ran.withLock { $0 = true }
      return .finish
    }.value
    #expect(outcome == .cancelled)
    #expect(!ran.withLock { $0 })
    #expect(f.log.take() == ["D.didAttempt"])
    #expect(snapshot(p) == before && p.presentedViewController === s)
    withExtendedLifetime((window, delegate)) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func delegateCanRefuseInteractiveDismissal_P6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let s = f.controller("S")
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(p)
    try await p.present(s, style: .pageSheet, animated: false)
    let delegate = Delegate(log: f.log, allows: false)
    s.presentationControllerDelegate = delegate
    _ = f.log.take()
    let outcome = try await s.interactiveDismiss { _ in .finish }.value
    #expect(outcome == .cancelled)
    #expect(f.log.take() == ["D.shouldDismiss=false", "D.didAttempt"])
    #expect(p.presentedViewController === s)
    withExtendedLifetime((window, delegate)) {}
  }

  @Test func onlyASheetCanBeDismissedInteractively_P6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let m = f.controller("M")
    let loose = f.controller("Loose")
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(p)
    try await p.present(m, style: .fullScreen, animated: false)
    _ = f.log.take()
    await #expect(throws: ContainmentError.notADismissibleSheet(m.node.id)) {
      try await m.interactiveDismiss { _ in .finish }
    }
    await #expect(throws: ContainmentError.notADismissibleSheet(loose.node.id)) {
      try await loose.interactiveDismiss { _ in .finish }
    }
    #expect(f.log.take() == [])
    #expect(p.presentedViewController === m)
    withExtendedLifetime(window) {}
  }
}

/// P5, P6: an interactive dismissal waits on its presenter's queue; if the
/// sheet meanwhile left that presenter and another presented it, it is
/// refused (it would act on the other presenter's chain outside that
/// presenter's queue).
@Suite(.timeLimit(.minutes(1)))
struct InteractiveDismissalQueueTests {
  /// P, a window's root, presents S (with `style`), whose child C presents
  /// F `.fullScreen`: S's layer is off screen.
  ///
  /// The log is emptied.
  private func coveredPresentation(_ f: Fixture, style: PresentationStyle) async throws
    -> (Window, RecordingController, RecordingController, RecordingController, RecordingController)
  {
    let p = f.controller("P")
    let s = f.controller("S")
    let c = f.controller("C")
    let full = f.controller("F")
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(p)
    try await f.install(c, in: s)
    try await p.present(s, style: style, animated: false)
    try await c.present(full, style: .fullScreen, animated: false)
    _ = f.log.take()
    return (window, p, s, c, full)
  }

  @Test func anInteractiveDismissalWhoseSheetMovedToAnotherPresenterMeanwhileIsRefused_P5_P6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let q = f.controller("Q")
    let s = f.controller("S")
    let first = makeWindow(clock: ManualClock())
    let second = makeWindow(clock: ManualClock())
    try await first.setRootViewController(p)
    try await second.setRootViewController(q)
    try await p.present(s, style: .pageSheet, animated: false)
    _ = f.log.take()
    let hold = Gate()
    let between = Gate()
    async let held = p.withTransaction { _ in await hold.wait() }
    await hold.waiters(atLeast: 1)
    async let dismissed = s.dismiss(animated: false)
    await p.node.queue.pending(atLeast: 1)
    async let paused = p.withTransaction { _ in await between.wait() }
    await p.node.queue.pending(atLeast: 2)
    let gesture = Task {
      try await s.interactiveDismiss { progress in
        progress.update(1)
        return .finish
      }
    }
    await p.node.queue.pending(atLeast: 3)
    hold.open()
    _ = try await held.value
    _ = try await dismissed.value
    await between.waiters(atLeast: 1)
    try await q.present(s, style: .formSheet, animated: false)
    between.open()
    _ = try await paused.value
    await #expect(throws: ContainmentError.notADismissibleSheet(s.node.id)) { _ = try await gesture.value.value }
    #expect(
      f.log.take() == [
        "S.viewWillDisappear", "S.viewDidDisappear", "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear",
      ])
    #expect(p.presentedViewController == nil && q.presentedViewController === s && s.presentingViewController === q)
    #expect(s.modalPresentationStyle == .formSheet && s.viewIfLoaded?.window === second)
    withExtendedLifetime((first, second)) {}
    #expect(p.checkInvariants().isEmpty && q.checkInvariants().isEmpty)
  }

  /// P6, A1: a sheet whose layer a `.fullScreen` presentation from its child
  /// took off screen hears nothing when an interactive dismissal of it is
  /// cancelled (it did not start on screen, so nothing is reversed).
  @Test func cancellingAnInteractiveDismissalOfACoveredSheetDeliversNothing_P6() async throws {
    let f = Fixture()
    let (window, p, s, c, full) = try await coveredPresentation(f, style: .pageSheet)
    let outcome = try await s.interactiveDismiss { progress in
      progress.update(0)
      return .cancel
    }.value
    #expect(outcome == .cancelled)
    #expect(f.log.take() == [])
    #expect(s.node.appearanceState == .disappeared && c.node.appearanceState == .disappeared)
    #expect(s.presentingViewController === p && full.presentingViewController === c)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants(quiescent: true).isEmpty)
  }

  /// P4, §10: replacing a window's root takes every presentation in the
  /// window along, also a chain whose top a `.fullScreen` presentation from
  /// the top's own child took off screen.
  @Test func replacingTheRootTakesAlongAChainWhoseTopIsCovered_P4() async throws {
    let f = Fixture()
    let (window, p, s, c, full) = try await coveredPresentation(f, style: .pageSheet)
    try await window.setRootViewController(nil)
    #expect(f.log.take() == ["F.viewWillDisappear", "P.viewWillDisappear", "F.viewDidDisappear", "P.viewDidDisappear"])
    #expect(p.presentedViewController == nil && s.presentingViewController == nil)
    #expect(c.presentedViewController == nil && full.presentingViewController == nil)
    #expect(window.rootView.subviews.isEmpty)
    #expect(p.checkInvariants().isEmpty && s.checkInvariants().isEmpty && full.checkInvariants().isEmpty)
  }

  /// P4, §10: a presentation from inside a presented controller's tree (a
  /// `.fullScreen` one from its child, covering it) ends first when that
  /// controller is dismissed; the covered controller leaves without coming
  /// back, and can be presented in another window with nothing left behind.
  @Test func aPresentationFromInsideADismissedControllerEndsFirst_P4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let q = f.controller("Q")
    let s = f.controller("S")
    let c = f.controller("C")
    let full = f.controller("F")
    let first = makeWindow(clock: ManualClock())
    let second = makeWindow(clock: ManualClock())
    try await first.setRootViewController(p)
    try await second.setRootViewController(q)
    try await f.install(c, in: s)
    try await p.present(s, style: .pageSheet, animated: false)
    try await c.present(full, style: .fullScreen, animated: false)
    _ = f.log.take()
    var events = c.events().makeAsyncIterator()
    #expect(await events.next()?.kind == .subscribed(state: .disappeared, parent: s.node.id))
    try await p.dismiss(animated: false)
    #expect(f.log.take() == ["F.viewWillDisappear", "F.viewDidDisappear"])
    #expect(await events.next()?.kind == .dismissed(full.node.id, style: .fullScreen, reason: .dismissed))
    #expect(full.presentingViewController == nil && c.presentedViewController == nil)
    #expect(s.presentingViewController == nil && first.rootView.subviews.count == 1)
    try await q.present(s, style: .formSheet, animated: false)
    #expect(
      f.log.take() == [
        "S.viewWillAppear", "C.viewWillAppear", "S.viewIsAppearing", "C.viewIsAppearing", "S.viewDidAppear",
        "C.viewDidAppear",
      ])
    #expect(s.viewIfLoaded?.window === second && s.presentingViewController === q)
    #expect(first.rootView.subviews.count == 1)
    #expect(p.checkInvariants().isEmpty && q.checkInvariants(quiescent: true).isEmpty)
  }

  /// P1, P4: the layer a `.fullScreen` presentation took off screen comes
  /// back when it is dismissed, also if a `.fullScreen` presentation from its
  /// own child has taken the dismissed controller itself off screen: that
  /// one, the top layer, is dismissed first.
  @Test func dismissingACoveredFullScreenPresentationBringsBackTheLayerItCovered_P1_P4() async throws {
    let f = Fixture()
    let (window, p, s, c, full) = try await coveredPresentation(f, style: .fullScreen)
    try await p.dismiss(animated: false)
    #expect(
      f.log.take() == [
        "F.viewWillDisappear", "F.viewDidDisappear", "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear",
      ])
    #expect(p.viewIfLoaded?.window === window && p.node.appearanceState == .appeared)
    #expect(
      p.presentedViewController == nil && s.presentingViewController == nil && full.presentingViewController == nil
        && c.presentedViewController == nil)
    #expect(p.checkInvariants(quiescent: true).isEmpty)
  }

  /// §10, §8: a presented controller cannot become a window's root: a typed
  /// error, and nothing changes.
  @Test func aPresentedControllerCannotBecomeAWindowsRoot_P8() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let s = f.controller("S")
    let first = makeWindow(clock: ManualClock())
    let second = makeWindow(clock: ManualClock())
    try await first.setRootViewController(p)
    try await p.present(s, style: .pageSheet, animated: false)
    _ = f.log.take()
    await #expect(throws: ContainmentError.alreadyPresented(s.node.id)) { try await second.setRootViewController(s) }
    #expect(f.log.take() == [])
    #expect(second.rootViewController == nil && s.presentingViewController === p && s.viewIfLoaded?.window === first)
    #expect(p.checkInvariants(quiescent: true).isEmpty)
  }

  /// §8: presenting itself is refused also for a controller in no window
  /// (a tree of its own): the request must not wait for its own tree.
  @Test func presentingItselfOutsideAWindowIsRefusedWithoutWaiting_P8() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    try await f.install(c, in: p)
    _ = f.log.take()
    await #expect(throws: ContainmentError.cannotPresentSelf(p.node.id)) { try await p.present(p, animated: false) }
    await #expect(throws: ContainmentError.hasParent(c.node.id)) { try await p.present(c, animated: false) }
    #expect(f.log.take() == [])
    #expect(p.presentedViewController == nil && p.presentingViewController == nil)
    #expect(p.checkInvariants(quiescent: true).isEmpty)
  }
}
