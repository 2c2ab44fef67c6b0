import ContainmentTestKit
import Testing

@testable import Containment

/// §10: a presentation lasts while its presenter keeps its place.
///
/// When the presenter (or an ancestor) leaves its parent, or the presented
/// controller it is inside is dismissed, the presentation ends first, in the
/// same transaction, as a dismissal that is not animated, and the `dismissed`
/// event gives the removal's reason.
@Suite(.timeLimit(.minutes(1)))
struct PresentationLifetimeTests {
  /// The kinds of the next `count` events on `iterator`.
  private func kinds(_ count: Int, _ iterator: inout LifecycleEvents.AsyncIterator) async -> [LifecycleEvent.Kind] {
    await take(count, from: &iterator).map(\.kind)
  }

  @Test func poppingALeafThatPresentsDismissesItsSheetFirst_P7() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let m = f.controller("M")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a, b], in: window)
    try await b.present(m, style: .pageSheet, animated: false)
    _ = f.log.take()
    var events = b.events().makeAsyncIterator()
    _ = await events.next()
    try await nav.pop(animated: false)
    #expect(
      f.log.take() == [
        "B.willMove(nil)", "M.viewWillDisappear", "M.viewDidDisappear", "A.viewDidLoad", "B.viewWillDisappear",
        "A.viewWillAppear",
        "A.viewIsAppearing", "B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)",
      ])
    #expect(
      await kinds(4, &events) == [
        .willMove(toParent: nil), .dismissed(m.node.id, style: .pageSheet, reason: .popped),
        .viewWillDisappear(animated: false), .viewDidDisappear(animated: false),
      ])
    #expect(b.presentedViewController == nil && m.presentingViewController == nil)
    #expect(window.rootView.subviews.count == 1 && m.viewIfLoaded?.window == nil)
    #expect(nav.checkInvariants(quiescent: true).isEmpty && m.checkInvariants(quiescent: true).isEmpty)
  }

  @Test func aPresenterMovedToAnotherParentEndsItsPresentationAsMoved_C6() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let k = f.controller("K")
    let a = f.controller("A")
    let m = f.controller("M")
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(r)
    try await f.install(k, in: r)
    try await f.install(a, in: r)
    try await a.present(m, style: .formSheet, animated: false)
    _ = f.log.take()
    var events = a.events().makeAsyncIterator()
    _ = await events.next()
    try await k.addChild(a)
    #expect(
      f.log.take() == [
        "A.willMove(nil)", "M.viewWillDisappear", "M.viewDidDisappear", "A.viewWillDisappear", "A.viewDidDisappear",
        "A.didMove(nil)", "A.willMove(K)",
      ])
    #expect(
      await kinds(2, &events) == [
        .willMove(toParent: nil), .dismissed(m.node.id, style: .formSheet, reason: .moved),
      ])
    #expect(a.parent === k && a.presentedViewController == nil && m.presentingViewController == nil)
    #expect(window.rootView.subviews.count == 1)
    #expect(r.checkInvariants(quiescent: true).isEmpty)
  }

  /// Removed the UIKit way with its view still in place: the full-screen
  /// presentation from its child ends first (the root's layer comes back,
  /// the removed controller with it), then the removal takes it off screen.
  @Test func removingAnAncestorOfAFullScreenPresenterEndsThePresentationFirst() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let a = f.controller("A")
    let b = f.controller("B")
    let x = f.controller("X")
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(r)
    try await f.install(a, in: r)
    try await f.install(b, in: a)
    try await b.present(x, style: .fullScreen, animated: false)
    _ = f.log.take()
    await a.willMove(toParent: nil)
    try await a.removeFromParent()
    #expect(
      f.log.take() == [
        "A.willMove(nil)", "X.viewWillDisappear", "R.viewWillAppear", "A.viewWillAppear", "B.viewWillAppear",
        "R.viewIsAppearing", "A.viewIsAppearing", "B.viewIsAppearing", "X.viewDidDisappear", "R.viewDidAppear",
        "A.viewDidAppear", "B.viewDidAppear", "A.viewWillDisappear", "B.viewWillDisappear", "A.viewDidDisappear",
        "B.viewDidDisappear", "A.didMove(nil)",
      ])
    #expect(r.node.appearanceState == .appeared && a.node.appearanceState == .disappeared)
    #expect(b.presentedViewController == nil && x.presentingViewController == nil)
    #expect(window.rootView.subviews.count == 1)
    #expect(r.checkInvariants(quiescent: true).isEmpty && a.checkInvariants(quiescent: true).isEmpty)
  }

  /// P4: dismissing a presented navigation stack ends what its child
  /// presents first (that sheet is the top layer), then the stack leaves.
  @Test func dismissingAPresentedStackEndsWhatItsChildPresentsFirst_P4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let m = f.controller("M")
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(p)
    let nav = NavigationController(name: "Nav")
    try await nav.setViewControllers([a], animated: false)
    try await p.present(nav, style: .pageSheet, animated: false)
    try await a.present(m, style: .formSheet, animated: false)
    _ = f.log.take()
    var events = a.events().makeAsyncIterator()
    _ = await events.next()
    try await p.dismiss(animated: false)
    #expect(f.log.take() == ["M.viewWillDisappear", "M.viewDidDisappear", "A.viewWillDisappear", "A.viewDidDisappear"])
    #expect(
      await kinds(3, &events) == [
        .dismissed(m.node.id, style: .formSheet, reason: .dismissed), .viewWillDisappear(animated: false),
        .viewDidDisappear(animated: false),
      ])
    #expect(nav.presentingViewController == nil && a.presentedViewController == nil)
    #expect(window.rootView.subviews.count == 1)
    #expect(p.checkInvariants(quiescent: true).isEmpty && nav.checkInvariants(quiescent: true).isEmpty)
  }

  /// P6: a sheet that finishes an interactive dismissal ends what its
  /// child presents first, then gets its own `viewDidDisappear`.
  @Test func anInteractivelyDismissedSheetEndsWhatItsChildPresents_P6() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let s = f.controller("S")
    let c = f.controller("C")
    let m = f.controller("M")
    let window = makeWindow(clock: ManualClock())
    try await window.setRootViewController(p)
    try await f.install(c, in: s)
    try await p.present(s, style: .pageSheet, animated: false)
    try await c.present(m, style: .formSheet, animated: false)
    _ = f.log.take()
    let handle = try await s.interactiveDismiss { progress in
      progress.update(1)
      return .finish
    }
    #expect(try await handle.value == .completed)
    #expect(
      f.log.take() == [
        "S.viewWillDisappear", "C.viewWillDisappear", "M.viewWillDisappear", "M.viewDidDisappear",
        "S.viewDidDisappear", "C.viewDidDisappear",
      ])
    #expect(s.presentingViewController == nil && c.presentedViewController == nil && m.presentingViewController == nil)
    #expect(window.rootView.subviews.count == 1)
    #expect(p.checkInvariants(quiescent: true).isEmpty)
  }

  /// A presenter popped and dropped: it and what it presented are released
  /// (the window keeps no layer of the ended presentation).
  @Test func aPoppedPresenterAndItsPresentationAreReleased() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let window = makeWindow(clock: ManualClock())
    let nav = try await f.onScreenNavigation([a], in: window)
    weak var weakB: RecordingController?
    weak var weakM: RecordingController?
    do {
      let b = f.controller("B")
      let m = f.controller("M")
      weakB = b
      weakM = m
      try await nav.push(b, animated: false)
      try await b.present(m, style: .formSheet, animated: false)
      try await nav.pop(animated: false)
    }
    settleReleases()
    #expect(weakB == nil && weakM == nil)
    #expect(window.rootView.subviews.count == 1 && names(nav.viewControllers) == ["A"])
  }
}
