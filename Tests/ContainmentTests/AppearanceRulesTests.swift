import ContainmentTestKit
import Testing

@testable import Containment

/// §3 A1, A2, A5: automatic forwarding.
@Suite(.timeLimit(.minutes(1)))
struct AppearanceRulesTests {
  @Test func parentAppearsBeforeChildrenInChildOrder_A1() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c1 = f.controller("C1")
    let c2 = f.controller("C2")
    let hidden = f.controller("H")
    try await f.install(c1, in: p)
    try await f.install(c2, in: p)
    try await p.addChild(hidden)  // view never installed: gets nothing (like an unselected tab)
    _ = f.log.take()
    let window = Window()
    try await window.setRootViewController(p)
    #expect(
      f.log.take() == [
        "P.viewWillAppear", "C1.viewWillAppear", "C2.viewWillAppear",
        "P.viewIsAppearing", "C1.viewIsAppearing", "C2.viewIsAppearing",
        "P.viewDidAppear", "C1.viewDidAppear", "C2.viewDidAppear",
      ])
    try await window.setRootViewController(nil)
    #expect(
      f.log.take() == [
        "P.viewWillDisappear", "C1.viewWillDisappear", "C2.viewWillDisappear",
        "P.viewDidDisappear", "C1.viewDidDisappear", "C2.viewDidDisappear",
      ])
    #expect(hidden.node.appearanceState == .disappeared)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func forwardingReachesGrandchildrenDepthFirst_A1() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c1 = f.controller("C1")
    let g = f.controller("G")
    let c2 = f.controller("C2")
    try await f.install(c1, in: p)
    try await f.install(g, in: c1)
    try await f.install(c2, in: p)
    let window = Window()
    try await window.setRootViewController(p)
    #expect(
      f.log.take() == [
        "P.viewWillAppear", "C1.viewWillAppear", "G.viewWillAppear", "C2.viewWillAppear",
        "P.viewIsAppearing", "C1.viewIsAppearing", "G.viewIsAppearing", "C2.viewIsAppearing",
        "P.viewDidAppear", "C1.viewDidAppear", "G.viewDidAppear", "C2.viewDidAppear",
      ])
  }

  @Test func viewIsAppearingRunsOncePerAppearance_A2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let window = try await f.onScreen(p)
    for _ in 0..<2 {
      try await window.setRootViewController(nil)
      try await window.setRootViewController(p)
    }
    #expect(
      f.log.take() == [
        "P.viewWillDisappear", "P.viewDidDisappear",
        "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear",
        "P.viewWillDisappear", "P.viewDidDisappear",
        "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear",
      ])
  }

  @Test func movingFlagsAreTrueDuringHooksCausedByMoves_A5() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let other = f.controller("O")
    let window = try await f.onScreen(p)
    let log = f.log
    await c.setOnHook { hook in
      guard hook.hasPrefix("view"), hook != "viewDidLoad" else { return }
      log.append("  to=\(c.node.isMovingToParent) from=\(c.node.isMovingFromParent)")
    }
    try await p.addChild(c)
    try await p.view.addSubview(await c.view)
    await c.didMove(toParent: p)
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad",
        "C.viewWillAppear", "  to=true from=false",
        "C.viewIsAppearing", "  to=true from=false",
        "C.viewDidAppear", "  to=true from=false",
        "C.didMove(P)",
      ])
    #expect(c.node.isMovingToParent == false)
    await c.willMove(toParent: nil)
    try await c.removeFromParent()
    #expect(
      f.log.take() == [
        "C.willMove(nil)",
        "C.viewWillDisappear", "  to=false from=true",
        "C.viewDidDisappear", "  to=false from=true",
        "C.didMove(nil)",
      ])
    #expect(c.node.isMovingFromParent == false)
    // Appearing because the window shows the parent: not a move.
    try await f.install(other, in: p)
    try await window.setRootViewController(nil)
    try await f.install(c, in: p)
    _ = f.log.take()
    try await window.setRootViewController(p)
    let entries = f.log.take()
    #expect(
      entries.filter { $0.hasPrefix("  ") } == [
        "  to=false from=false", "  to=false from=false", "  to=false from=false",
      ])
  }
}
