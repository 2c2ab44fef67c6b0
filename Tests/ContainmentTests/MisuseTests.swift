import ContainmentTestKit
import Testing

@testable import Containment

/// §8 at the containment layer: a typed error, and the tree unchanged.
@Suite(.timeLimit(.minutes(1)))
struct MisuseTests {
  @Test func addingSelfAsChildThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, _) = try await f.tree()
    let before = snapshot(r)
    await #expect(throws: ContainmentError.cannotAddSelfAsChild(p.node.id)) { try await p.addChild(p) }
    #expect(snapshot(r) == before)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func addingAnAncestorThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let before = snapshot(r)
    await #expect(throws: ContainmentError.wouldCreateCycle(child: p.node.id, parent: c.node.id)) {
      try await c.addChild(p)
    }
    await #expect(throws: ContainmentError.wouldCreateCycle(child: r.node.id, parent: c.node.id)) {
      try await c.addChild(r)
    }
    let other = f.controller("O")
    let otherWindow = try await f.onScreen(other)
    await #expect(throws: ContainmentError.alreadyInWindow(other.node.id)) { try await c.addChild(other) }
    #expect(otherWindow.rootViewController === other)
    #expect(snapshot(r) == before)
    #expect(f.log.take() == [])
    #expect(r.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  @Test func addingAnExistingChildAgainThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let before = snapshot(r)
    await #expect(throws: ContainmentError.alreadyChild(child: c.node.id, parent: p.node.id)) {
      try await p.addChild(c)
    }
    #expect(snapshot(r) == before)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func removingAParentlessControllerThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, _, _) = try await f.tree()
    let stranger = f.controller("S")
    let before = snapshot(r)
    await #expect(throws: ContainmentError.noParent(stranger.node.id)) { try await stranger.removeFromParent() }
    #expect(snapshot(r) == before)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func installingAStrangersViewThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, _) = try await f.tree()
    let stranger = f.controller("S")
    let strangerView = await stranger.view
    _ = f.log.take()
    let before = snapshot(r)
    await #expect(throws: ContainmentError.foreignView) { try await p.view.addSubview(strangerView) }
    await #expect(throws: ContainmentError.viewHierarchyCycle) {
      try await p.view.addSubview(r.view)
    }
    #expect(snapshot(r) == before)
    #expect(strangerView.superview == nil)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  /// A window's own view is the root of its view hierarchy: adding it to a
  /// view (detached, or in another window's tree) is refused, also while
  /// the window swaps its root, and nothing changes.
  @Test func addingAWindowsOwnViewToAnotherViewThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, _) = try await f.tree()
    let r2 = f.controller("R2")
    let other = Window()
    try await other.setRootViewController(r2)
    _ = f.log.take()
    let host = View(frame: .zero, label: "host")
    let before = snapshot(r) + snapshot(r2)
    await #expect(throws: ContainmentError.windowRootView) { try await host.addSubview(window.rootView) }
    await #expect(throws: ContainmentError.windowRootView) { try await p.view.addSubview(other.rootView) }
    // While the window's root is being replaced (its old root parked in
    // `viewWillDisappear`).
    let r3 = f.controller("R3")
    let gate = Gate()
    await r.setOnHook { hook in if hook == "viewWillDisappear" { await gate.wait() } }
    async let swap = window.setRootViewController(r3)
    await gate.waiters(atLeast: 1)
    await #expect(throws: ContainmentError.windowRootView) { try await host.addSubview(window.rootView) }
    #expect(window.rootView.superview == nil)
    #expect(other.rootView.superview == nil)
    #expect(host.subviews.isEmpty)
    #expect(snapshot(r2) == Array(before.suffix(snapshot(r2).count)))
    gate.open()
    _ = try await swap
    #expect(
      f.log.take() == [
        "R.viewWillDisappear", "P.viewWillDisappear", "C.viewWillDisappear", "R.viewDidDisappear",
        "P.viewDidDisappear", "C.viewDidDisappear", "R3.viewDidLoad", "R3.viewWillAppear", "R3.viewIsAppearing",
        "R3.viewDidAppear",
      ])
    #expect(window.rootViewController === r3)
    #expect(r.checkInvariants().isEmpty)
    #expect(r3.checkInvariants().isEmpty)
  }

  @Test func usingATornDownTreeThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    try await window.tearDown()
    #expect(
      f.log.take() == [
        "R.viewWillDisappear", "P.viewWillDisappear", "C.viewWillDisappear",
        "R.viewDidDisappear", "P.viewDidDisappear", "C.viewDidDisappear",
        "C.viewDidTearDown", "P.viewDidTearDown", "R.viewDidTearDown",
      ])
    let before = snapshot(r)
    let fresh = f.controller("F")
    await #expect(throws: ContainmentError.tornDown(p.node.id)) { try await p.addChild(fresh) }
    await #expect(throws: ContainmentError.tornDown(c.node.id)) { try await c.removeFromParent() }
    await #expect(throws: ContainmentError.windowTornDown) { try await window.setRootViewController(r) }
    #expect(snapshot(r) == before)
    #expect(fresh.parent == nil)
    #expect(f.log.take() == [])
  }
}
