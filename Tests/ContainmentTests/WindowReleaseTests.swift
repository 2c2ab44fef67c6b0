import ContainmentTestKit
import Testing

@testable import Containment

/// A released window takes its whole tree off screen (§2 invariants, V3):
/// presented chains included, and controllers whose appearance was under way
/// end off screen once it finishes.
///
/// No hooks: the window is gone, like a window released at rest.
@Suite(.timeLimit(.minutes(1)))
struct WindowReleaseTests {
  @Test func aReleasedWindowTakesItsPresentedChainOffScreen_invariants() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let m = f.controller("M")
    let s = f.controller("S")
    var window: Window? = try await f.onScreen(p)
    try await p.present(m, style: .fullScreen, animated: false)
    try await m.present(s, style: .pageSheet, animated: false)
    _ = f.log.take()
    weak let released = window
    window = nil
    settleReleases()
    #expect(released == nil)
    #expect(f.log.take() == [])
    #expect([p, m, s].map(\.node.appearanceState) == [.disappeared, .disappeared, .disappeared])
    #expect(p.checkInvariants().isEmpty)

    // The presentations belonged to the released window: shown again, the
    // tree ends them first (no hooks: they are off screen), then appears.
    var events = p.treeEvents().makeAsyncIterator()
    _ = await events.next()
    let next = Window()
    try await next.setRootViewController(p)
    #expect(f.log.take() == ["P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear"])
    #expect(p.presentedViewController == nil && m.presentingViewController == nil)
    #expect(m.presentedViewController == nil && s.presentingViewController == nil)
    let dismissals = await take(2, from: &events).map { "\($0.path) \($0.kind)" }
    #expect(
      dismissals == [
        "P/M \(LifecycleEvent.Kind.dismissed(s.node.id, style: .pageSheet, reason: .windowReleased))",
        "P \(LifecycleEvent.Kind.dismissed(m.node.id, style: .fullScreen, reason: .windowReleased))",
      ])
    #expect(p.checkInvariants().isEmpty && m.checkInvariants().isEmpty && s.checkInvariants().isEmpty)
    // P presents again in the new window.
    try await p.present(m, style: .pageSheet, animated: false)
    #expect(f.log.take() == ["M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear"])
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func aWindowReleasedDuringAnAnimatedTransitionLeavesTheTreeOffScreen_T2_invariants() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    var window: Window? = makeWindow(clock: clock)
    try await window?.setRootViewController(p)
    try await f.install(a, in: p)
    try await p.addChild(b)
    _ = f.log.take()
    async let outcome = p.transition(from: a, to: b, duration: .milliseconds(300))
    await clock.sleepers(atLeast: 1)
    window = nil
    settleReleases()
    clock.advance(by: .milliseconds(300))
    #expect(try await outcome.value == .completed)
    // The transition finishes as documented (T2); then nothing is on screen.
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear",
        "B.viewDidAppear",
      ])
    #expect([p, a, b].map(\.node.appearanceState) == [.disappeared, .disappeared, .disappeared])
    #expect(p.checkInvariants().isEmpty)
    var events = b.events().makeAsyncIterator()
    #expect(await events.next()?.kind == .subscribed(state: .disappeared, parent: p.node.id))
  }

  @Test func aWindowReleasedDuringAnAnimatedPresentLeavesTheSheetOffScreen_P2_invariants() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let p = f.controller("P")
    let s = f.controller("S")
    var window: Window? = makeWindow(clock: clock)
    try await window?.setRootViewController(p)
    _ = f.log.take()
    async let outcome = p.present(s, style: .pageSheet, animated: true)
    await clock.sleepers(atLeast: 1)
    window = nil
    settleReleases()
    clock.advance(by: p.presentationDuration)
    _ = try await outcome.value
    #expect(f.log.take() == ["S.viewDidLoad", "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear"])
    #expect([p, s].map(\.node.appearanceState) == [.disappeared, .disappeared])
    #expect(p.checkInvariants().isEmpty)
    var events = s.events().makeAsyncIterator()
    #expect(await events.next()?.kind == .subscribed(state: .disappeared, parent: nil))
  }
}
