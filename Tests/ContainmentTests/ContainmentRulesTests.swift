import ContainmentTestKit
import Testing

@testable import Containment

/// §2: containment verbs and their hook orders.
@Suite(.timeLimit(.minutes(1)))
struct ContainmentRulesTests {
  @Test func addChildCallsWillMoveButNeverDidMove_C1() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    try await p.addChild(c)
    #expect(f.log.take() == ["C.willMove(P)"])
    #expect(names(p.children) == ["C"])
    #expect(c.parent === p)
    await c.didMove(toParent: p)
    #expect(f.log.take() == ["C.didMove(P)"])
  }

  @Test func removeFromParentCallsDidMoveButNeverWillMove_C2() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    try await p.addChild(c)
    _ = f.log.take()
    try await c.removeFromParent()
    #expect(f.log.take() == ["C.didMove(nil)"])
    #expect(p.children.isEmpty)
    #expect(c.parent == nil)
  }

  @Test func standardAddOnScreenOrdersHooks_C3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    try await p.addChild(c)
    try await p.view.addSubview(await c.view)
    await c.didMove(toParent: p)
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "C.didMove(P)",
      ])
    #expect(c.node.appearanceState == .appeared)
    #expect(c.viewIfLoaded?.window === window)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func standardRemoveOnScreenOrdersHooks_C4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    try await f.install(c, in: p)
    await c.willMove(toParent: nil)
    try await c.view.removeFromSuperview()
    try await c.removeFromParent()
    #expect(f.log.take() == ["C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)"])
    #expect(c.node.appearanceState == .disappeared)
    #expect(p.children.isEmpty)
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func removeFromParentAlsoDetachesAnInstalledView_C4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    try await f.install(c, in: p)
    await c.willMove(toParent: nil)
    try await c.removeFromParent()
    #expect(f.log.take() == ["C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)"])
    #expect(c.viewIfLoaded?.superview == nil)
    #expect(window.rootView.subviews.count == 1)
    #expect(p.checkInvariants().isEmpty)
  }

  @Test func viewDidLoadNeverRunsInsideAddChild_C5() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    try await p.addChild(c)
    #expect(f.log.take() == ["C.willMove(P)"])
    #expect(!c.isViewLoaded)
    withExtendedLifetime(window) {}
    _ = await c.view
    #expect(f.log.take() == ["C.viewDidLoad"])
  }

  @Test func addingAChildWithAnotherParentMovesIt_C6() async throws {
    let f = Fixture()
    let root = f.controller("R")
    let q = f.controller("Q")
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(root)
    try await f.install(q, in: root)
    try await f.install(p, in: root)
    try await f.install(c, in: q)
    try await p.addChild(c)
    #expect(
      f.log.take() == [
        "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)", "C.willMove(P)",
      ])
    #expect(q.children.isEmpty)
    #expect(names(p.children) == ["C"])
    #expect(c.parent === p)
    #expect(root.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  @Test func oppositeConcurrentMovesDoNotDeadlock_C6() async throws {
    let f = Fixture()
    let q1 = f.controller("Q1")
    let q2 = f.controller("Q2")
    let a = f.controller("A")
    let b = f.controller("B")
    try await q1.addChild(a)
    try await q2.addChild(b)
    for _ in 0..<50 {
      async let first = q2.addChild(a)
      async let second = q1.addChild(b)
      _ = try await (first, second)
      async let third = q1.addChild(a)
      async let fourth = q2.addChild(b)
      _ = try await (third, fourth)
    }
    #expect(a.parent === q1)
    #expect(b.parent === q2)
    #expect(q1.checkInvariants().isEmpty)
    #expect(q2.checkInvariants().isEmpty)
    // Every move delivered balanced callbacks: each willMove(nil) has a didMove(nil).
    let entries = f.log.take()
    for name in ["A", "B"] {
      let leaves = entries.filter { $0 == "\(name).willMove(nil)" }.count
      let left = entries.filter { $0 == "\(name).didMove(nil)" }.count
      #expect(leaves == left)
      #expect(leaves == 100)
    }
  }

  @Test func aControllerBeingRemovedCannotBeAdoptedMidway_C6() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let p = f.controller("P")
    let q = f.controller("Q")
    let c = f.controller("C")
    let window = try await f.onScreen(r)
    try await f.install(p, in: r)
    try await f.install(q, in: r)
    try await f.install(c, in: p)
    let gate = Gate()
    await c.setOnHook { hook in if hook == "viewWillDisappear" { await gate.wait() } }
    await c.willMove(toParent: nil)
    async let removal = c.removeFromParent()
    await gate.waiters(atLeast: 1)
    // C is unlinked but has not heard didMove(nil) yet: it is still in flight.
    await #expect(throws: ContainmentError.childInFlight(c.node.id)) { try await q.addChild(c) }
    gate.open()
    _ = try await removal
    #expect(f.log.take() == ["C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)"])
    try await q.addChild(c)
    #expect(f.log.take() == ["C.willMove(Q)"])
    #expect(c.parent === q)
    withExtendedLifetime(window) {}
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func removedSubtreeIsReleased_invariants() async throws {
    let f = Fixture()
    weak var weakChild: RecordingController?
    weak var weakGrandchild: RecordingController?
    let p = f.controller("P")
    let window = try await f.onScreen(p)
    do {
      let c = f.controller("C")
      let g = f.controller("G")
      weakChild = c
      weakGrandchild = g
      try await f.install(c, in: p)
      try await f.install(g, in: c)
      await c.willMove(toParent: nil)
      try await c.removeFromParent()
    }
    settleReleases()
    #expect(weakChild == nil)
    #expect(weakGrandchild == nil)
    withExtendedLifetime(window) {}
  }

  @Test func parentNeverKeepsAParentAlive_invariants() async throws {
    let f = Fixture()
    let c = f.controller("C")
    weak var weakParent: RecordingController?
    do {
      let p = f.controller("P")
      weakParent = p
      try await p.addChild(c)
      try await c.removeFromParent()
    }
    settleReleases()
    #expect(weakParent == nil)
    #expect(c.parent == nil)
  }

  @Test func aChildOutlivingItsReleasedParentIsARootAndCanJoinAnotherParent_invariants() async throws {
    let f = Fixture()
    let c = f.controller("C")
    let g = f.controller("G")
    let q = f.controller("Q")
    weak var weakParent: RecordingController?
    do {
      let p = f.controller("P")
      weakParent = p
      try await f.install(c, in: p)
      try await f.install(g, in: c)
      #expect(c.parent === p)
    }
    settleReleases()
    #expect(weakParent == nil)
    #expect(c.parent == nil)
    #expect(g.parent === c)
    #expect(c.checkInvariants().isEmpty)
    #expect(f.log.take() == [])
    try await q.addChild(c)
    try await q.view.addSubview(await c.view)
    await c.didMove(toParent: q)
    #expect(f.log.take() == ["C.willMove(Q)", "Q.viewDidLoad", "C.didMove(Q)"])
    #expect(c.parent === q)
    #expect(q.children.map(\.node.id) == [c.node.id])
    #expect(q.checkInvariants().isEmpty)
  }

  @Test func aTreeDroppedByItsUserIsReleased_invariants() async throws {
    let f = Fixture()
    weak var weakWindow: Window?
    weak var weakRoot: RecordingController?
    weak var weakChild: RecordingController?
    do {
      let root = f.controller("R")
      let c = f.controller("C")
      let window = try await f.onScreen(root)
      try await f.install(c, in: root)
      weakWindow = window
      weakRoot = root
      weakChild = c
    }
    settleReleases()
    #expect(weakWindow == nil)
    #expect(weakRoot == nil)
    #expect(weakChild == nil)
  }
}
