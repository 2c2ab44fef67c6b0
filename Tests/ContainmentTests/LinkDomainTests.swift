import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// Trees are the unit of locking: every object linked into a tree is guarded
/// by the tree's link lock, a tree that joins another takes its lock, and a
/// subtree that leaves takes a lock of its own at its first transaction.
@Suite(.timeLimit(.minutes(1)))
struct LinkDomainTests {
  /// The link domains of `controllers` and their loaded views.
  private func domains(_ controllers: RecordingController...) -> Set<Int> {
    Set(
      controllers.flatMap { controller in
        [controller.node.linkDomain] + (controller.viewIfLoaded.map { [$0.linkDomain] } ?? [])
      })
  }

  @Test func aTreeAddedUnderAnotherTakesItsLockAndASubtreeThatLeavesTakesAnotherAtItsFirstTransaction_R5()
    async throws
  {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let q = f.controller("Q")
    let s = f.controller("S")
    try await f.install(s, in: q)
    #expect(domains(r, p, c).count == 1)
    #expect(domains(q, s).count == 1)
    #expect(window.linkDomain == r.node.linkDomain)

    try await c.addChild(q)
    try await c.view.addSubview(await q.view)
    await q.didMove(toParent: c)
    #expect(
      f.log.take() == [
        "Q.willMove(C)", "Q.viewWillAppear", "S.viewWillAppear", "Q.viewIsAppearing", "S.viewIsAppearing",
        "Q.viewDidAppear", "S.viewDidAppear", "Q.didMove(C)",
      ])
    #expect(domains(r, p, c, q, s) == [r.node.linkDomain])
    #expect(r.checkInvariants().isEmpty)

    await q.willMove(toParent: nil)
    try await q.view.removeFromSuperview()
    try await q.removeFromParent()
    #expect(
      f.log.take() == [
        "Q.willMove(nil)", "Q.viewWillDisappear", "S.viewWillDisappear", "Q.viewDidDisappear", "S.viewDidDisappear",
        "Q.didMove(nil)",
      ])
    // Left, but not used yet: still under R's lock.
    #expect(domains(r, p, c, q, s) == [r.node.linkDomain])
    // Q's tree's first transaction moves it, whole, to a lock of its own.
    try await q.withTransaction { _ in }
    #expect(f.log.take() == [])
    #expect(domains(r, p, c) == [r.node.linkDomain])
    #expect(domains(q, s) == [q.node.linkDomain])
    #expect(q.node.linkDomain != r.node.linkDomain)
    #expect(r.checkInvariants().isEmpty)
    #expect(q.checkInvariants().isEmpty)
  }

  /// R5, "separated again": what leaves takes a lock of its own at its first transaction.
  ///
  /// A popped controller, a dismissed one and a replaced window root keep the
  /// tree's lock until then and take one of their own with their views;
  /// shown again, they come back under the tree's. One popped and pushed
  /// again never moves.
  @Test func aPoppedDismissedOrReplacedControllerTakesALockOfItsOwnAtItsFirstTransaction_R5() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let m = f.controller("M")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    try await nav.push(b, animated: false)
    try await nav.present(m, style: .fullScreen, animated: false)
    _ = f.log.take()
    #expect(domains(a, b, m) == [nav.node.linkDomain])
    try await m.dismiss(animated: false)
    try await nav.pop(animated: false)
    #expect(
      f.log.take() == [
        "M.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "M.viewDidDisappear", "B.viewDidAppear",
        "B.willMove(nil)", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "B.viewDidDisappear",
        "A.viewDidAppear", "B.didMove(nil)",
      ])
    #expect(domains(a, b, m) == [nav.node.linkDomain])
    // Pushed again before any transaction of its own: it never moved.
    try await nav.push(b, animated: false)
    try await nav.pop(animated: false)
    _ = f.log.take()
    try await b.withTransaction { _ in }
    try await m.withTransaction { _ in }
    #expect(f.log.take() == [])
    #expect(domains(a) == [nav.node.linkDomain] && window.linkDomain == nav.node.linkDomain)
    #expect(domains(b) == [b.node.linkDomain] && domains(m) == [m.node.linkDomain])
    #expect(b.node.linkDomain != nav.node.linkDomain && m.node.linkDomain != nav.node.linkDomain)
    try await nav.push(b, animated: false)
    #expect(domains(a, b) == [nav.node.linkDomain])
    // A root replaced leaves the window's lock with its whole tree.
    let n = f.controller("N")
    _ = f.log.take()
    try await window.setRootViewController(n)
    #expect(
      f.log.take() == [
        "B.viewWillDisappear", "B.viewDidDisappear", "N.viewDidLoad", "N.viewWillAppear", "N.viewIsAppearing",
        "N.viewDidAppear",
      ])
    #expect(domains(n, a, b) == [window.linkDomain] && nav.node.linkDomain == window.linkDomain)
    try await a.withTransaction { _ in }
    #expect(f.log.take() == [])
    #expect(domains(n) == [window.linkDomain] && nav.node.linkDomain != window.linkDomain)
    #expect(domains(a, b) == [nav.node.linkDomain])
    #expect(nav.checkInvariants().isEmpty && n.checkInvariants().isEmpty && m.checkInvariants().isEmpty)
  }

  @Test func aTransactionWhoseTreeWasSplitAcrossTwoLocksLeavesBoth_R4_R5() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let g = f.controller("G")
    let x = f.controller("X")
    let s = f.controller("S")
    let y = f.controller("Y")
    let q = f.controller("Q")
    try await f.install(g, in: r)
    try await f.install(x, in: r)
    try await x.addChild(s)
    await s.didMove(toParent: x)
    // A view standing for another tree, under another lock than R's.
    let host = (0...TreeLock.domains.count).lazy.map { _ in View() }.first { $0.linkDomain != r.node.linkDomain }!
    _ = f.log.take()
    let gate = Gate()
    await y.setOnHook { hook in if hook == "willMove" { await gate.wait() } }
    // G's transaction keeps R's tree busy ...
    async let blocked = g.addChild(y)
    await gate.waiters(atLeast: 1)
    // ... while S leaves it (its tree is still marked busy by G's transaction)
    // and S's view joins the other tree, taking S to the other lock.
    await s.willMove(toParent: nil)
    try await s.removeFromParent()
    try await host.addSubview(await s.view)
    #expect(s.node.linkDomain == host.linkDomain)
    #expect(s.node.linkDomain != r.node.linkDomain)
    #expect(TreeLock.withLock(s.node) { held in s.node.hierarchy[held].treeMarks.count } == 1)
    gate.open()
    _ = try await blocked
    // Ending, G's transaction left both trees: S can be adopted at once.
    #expect(TreeLock.withLock(s.node) { held in s.node.hierarchy[held].treeMarks.isEmpty })
    try await q.addChild(s)
    #expect(f.log.take() == ["Y.willMove(G)", "S.willMove(nil)", "S.didMove(nil)", "S.viewDidLoad", "S.willMove(Q)"])
    #expect(r.checkInvariants().isEmpty)
    #expect(q.checkInvariants().isEmpty)
  }

  /// A subtree that joins another lock takes its marks' counts first.
  ///
  /// A child removed inside its parent's still-running transaction carries
  /// that transaction's mark into its own tree. If its view then joins a tree
  /// under another lock, the mark's ancestor counts are taken first, under the
  /// lock they live in: afterwards the child's tree never reads its old
  /// parent's links under the new lock.
  @Test func aSubtreeThatJoinsAnotherLockDuringItsOldParentsTransactionTakesItsCountsFirst_R4_R5() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let m = f.controller("M")
    let host = (0...TreeLock.domains.count).lazy.map { _ in View() }.first { $0.linkDomain != r.node.linkDomain }!
    let removed = Gate()
    let gate = Gate()
    // P's transaction removes C and stays open.
    async let scope = p.withTransaction { _ in
      await c.willMove(toParent: nil)
      try await c.view.removeFromSuperview()
      try await c.removeFromParent()
      removed.open()
      await gate.wait()
    }
    await removed.wait()
    // C's tree is still marked by P's transaction; C's view joins another lock.
    try await host.addSubview(await c.view)
    #expect(c.node.linkDomain == host.linkDomain)
    #expect(c.node.linkDomain != r.node.linkDomain)
    let uncounted = TreeLock.withLock(c.node) { held in
      c.node.hierarchy[held].treeMarks.count { $0.ancestors == nil }
    }
    #expect(uncounted == 0)
    // A transaction of C's tree is admitted while P's runs (they do not
    // overlap), reading only C's lock.
    try await c.addChild(m)
    gate.open()
    _ = try await scope
    #expect(
      f.log.take() == [
        "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)", "M.willMove(C)",
      ])
    #expect(TreeLock.withLock(c.node) { held in c.node.hierarchy[held].treeMarks.isEmpty })
    #expect(TreeLock.withLock(r.node) { held in r.node.hierarchy[held].activeBelow } == 0)
    #expect(r.checkInvariants().isEmpty)
    #expect(c.checkInvariants().isEmpty)
    #expect(window.rootViewController === r)
  }

  /// A scope of another tree cannot link the child in while its old
  /// parent's transaction runs.
  ///
  /// The scope's verbs run inline and cannot wait
  /// for that transaction, so the adoption is refused with a typed error and
  /// changes nothing (an inline link would let the scope's tree and P's
  /// transaction run at once, R4, and move C to another lock while P's
  /// transaction may still read it). Outside that transaction it succeeds.
  @Test func aScopeCannotAdoptAChildWhoseOldParentsTransactionStillRuns_R4_R6() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let q = f.controller("Q")
    // Q's tree, on screen in a window under another lock than R's.
    let other = (0...TreeLock.domains.count).lazy.map { _ in Window() }.first { $0.linkDomain != r.node.linkDomain }!
    try await other.setRootViewController(q)
    _ = f.log.take()
    let removed = Gate()
    let gate = Gate()
    async let scope = p.withTransaction { _ in
      await c.willMove(toParent: nil)
      try await c.view.removeFromSuperview()
      try await c.removeFromParent()
      removed.open()
      await gate.wait()
    }
    await removed.wait()
    await expectScopeRefusesToAdopt(c, by: q)
    gate.open()
    _ = try await scope
    // P's transaction has ended: the same scope links C in.
    try await q.withTransaction { _ in
      try await q.addChild(c)
      try await q.view.addSubview(await c.view)
      await c.didMove(toParent: q)
    }
    #expect(c.node.linkDomain == q.node.linkDomain)
    #expect(
      f.log.take() == [
        "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)", "C.willMove(Q)",
        "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "C.didMove(Q)",
      ])
    #expect(TreeLock.withLock(q.node) { held in other.hierarchy[held].treeMarks.isEmpty })
    #expect(TreeLock.withLock(q.node) { held in c.node.hierarchy[held].adoptions } == 0)
    #expect(TreeLock.withLock(r.node) { held in window.hierarchy[held].activeBelow } == 0)
    #expect(r.checkInvariants().isEmpty)
    #expect(q.checkInvariants().isEmpty)
  }

  /// A scope's body adopting a tree in which another transaction is parked
  /// mid-removal (a pop waiting in a hook): refused, nothing changes, and the
  /// pop then finishes in its own tree, under its own lock.
  @Test func aScopeCannotAdoptATreeWhoseTransactionIsMidRemoval_R4_R6() async throws {
    let f = Fixture()
    let (nav, gate) = try await f.stackWhoseSecondParksInWillMove()
    let a = f.controller("A")
    let other = (0...TreeLock.domains.count).lazy.map { _ in Window() }.first { $0.linkDomain != nav.node.linkDomain }!
    try await other.setRootViewController(a)
    _ = f.log.take()
    async let pop = nav.popToRoot(animated: false)
    await gate.waiters(atLeast: 1)
    await expectScopeRefusesToAdopt(nav, by: a)
    gate.open()
    #expect(names(try await pop.value) == ["V2", "V3"])
    #expect(
      f.log.take() == [
        "V2.willMove(nil)", "V3.willMove(nil)", "V2.didMove(nil)", "V3.didMove(nil)",
      ])
    #expect(names(nav.viewControllers) == ["V1"])
    #expect(nav.parent == nil)
    #expect(nav.checkInvariants().isEmpty)
    #expect(a.checkInvariants().isEmpty)
  }

  /// A child a change has taken out of `children` stays linked to its
  /// parent until its hooks have run: a join meanwhile (the busy tree's
  /// view added to a detached view under another lock, no transaction
  /// needed) moves it with the tree, so the change ends under one lock.
  @Test func aLeavingChildMovesWithItsTreeWhenTheTreeJoinsAnotherLock_R5() async throws {
    let f = Fixture()
    let (nav, gate) = try await f.stackWhoseSecondParksInWillMove()
    let (v2, v3) = (nav.viewControllers[1], nav.viewControllers[2])
    let host = (0...TreeLock.domains.count).lazy.map { _ in View() }.first { $0.linkDomain != nav.node.linkDomain }!
    async let pop = nav.popToRoot(animated: false)
    await gate.waiters(atLeast: 1)
    try await host.addSubview(nav.view)
    #expect(nav.node.linkDomain == host.linkDomain)
    #expect(v2.node.linkDomain == host.linkDomain)
    #expect(v3.node.linkDomain == host.linkDomain)
    gate.open()
    #expect(names(try await pop.value) == ["V2", "V3"])
    // The stack's view was loaded meanwhile: the new top's loads.
    #expect(
      f.log.take() == [
        "V2.willMove(nil)", "V3.willMove(nil)", "V1.viewDidLoad", "V2.didMove(nil)", "V3.didMove(nil)",
      ])
    #expect(names(nav.viewControllers) == ["V1"])
    #expect(v2.parent == nil)
    #expect(v3.parent == nil)
    #expect(TreeLock.withLock(nav.node) { held in nav.node[held].containerAttributes.value.leavingChildren.isEmpty })
    #expect(nav.checkInvariants().isEmpty)
    #expect(v2.checkInvariants().isEmpty)
  }

  /// The invariant check reads a controller's links only under the lock
  /// that guards them: a child left under another lock (the bug class the
  /// domain checks catch) is reported, not read.
  @Test func theInvariantCheckReportsAChildUnderAnotherLockWithoutReadingIt() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let old = c.node.linkDomain
    let elsewhere = (0...TreeLock.domains.count).lazy.map { _ in View() }.first { $0.linkDomain != old }!
    let moved = elsewhere.linkDomain
    // Corrupt the tree on purpose: C alone (not its view) under another lock.
    TreeLock.withLock([c.node, elsewhere]) { held in c.node.move(held, from: old, to: moved) }
    #expect(
      r.checkInvariants().map(\.message) == [
        "is linked into a tree whose links another lock guards"
      ])
    #expect(r.checkInvariants().map(\.controller) == [c.node.id])
    TreeLock.withLock([c.node, r.node]) { held in c.node.move(held, from: moved, to: old) }
    #expect(r.checkInvariants().isEmpty)
    #expect(p.children.count == 1)
    withExtendedLifetime(window) {}
  }

  @Test func updatesHandedOverByDeinitsAreKeptPerDomain_R5() {
    let updates = ReleasedUpdates(count: 128)
    let ran = Locked<[String]>([])
    #expect(updates.isEmpty)
    updates.append({ _ in ran.withLock { $0.append("3a") } }, in: 3)
    updates.append({ _ in ran.withLock { $0.append("70") } }, in: 70)
    updates.append({ _ in ran.withLock { $0.append("3b") } }, in: 3)
    #expect(updates.domainsWithUpdates == [3, 70])
    #expect(updates.take(5).isEmpty)
    // Updates run inside a section (any will do for this table).
    let section = ControllerNode(name: "section")
    TreeLock.withLock(section) { held in for update in updates.take(3) { update(held) } }
    #expect(ran.withLock { $0 } == ["3a", "3b"])
    #expect(updates.domainsWithUpdates == [70])
    #expect(!updates.isEmpty)
    TreeLock.withLock(section) { held in for update in updates.take(70) { update(held) } }
    #expect(ran.withLock { $0 } == ["3a", "3b", "70"])
    #expect(updates.domainsWithUpdates.isEmpty)
    #expect(updates.isEmpty)
  }

  @Test func aWindowsRootAndWhatItPresentsShareTheWindowsLock_R5() async throws {
    let f = Fixture()
    let q = f.controller("Q")
    let s = f.controller("S")
    let m = f.controller("M")
    try await f.install(s, in: q)
    let window = Window()
    try await window.setRootViewController(q)
    try await q.present(m, style: .fullScreen, animated: false)
    #expect(
      f.log.take() == [
        "Q.viewWillAppear", "S.viewWillAppear", "Q.viewIsAppearing", "S.viewIsAppearing", "Q.viewDidAppear",
        "S.viewDidAppear", "M.viewDidLoad", "Q.viewWillDisappear", "S.viewWillDisappear", "M.viewWillAppear",
        "M.viewIsAppearing", "M.viewDidAppear", "Q.viewDidDisappear", "S.viewDidDisappear",
      ])
    #expect(domains(q, s, m) == [window.linkDomain])
    #expect(q.checkInvariants().isEmpty)
  }

  @Test func aSelectedTabThatLeftForAnotherTreeIsNotReadThroughTheTabBarsLock_R5() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let other = f.controller("Other")
    let tabs = TabBarController(name: "Tabs")
    try await tabs.setViewControllers([a, b], selectedIndex: 0)
    _ = f.log.take()
    try await a.removeFromParent()
    try await other.addChild(a)
    #expect(f.log.take() == ["A.didMove(nil)", "A.willMove(Other)"])
    #expect(a.node.linkDomain == other.node.linkDomain)
    #expect(tabs.selectedViewController == nil)
    #expect(tabs.selectedIndex == nil)
    #expect(names(tabs.viewControllers) == ["B"])
    #expect(tabs.checkInvariants().isEmpty)
    #expect(other.checkInvariants().isEmpty)
  }

  @Test func aDomainsGenerationChangesWhenObjectsLeaveIt_R5() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let q = f.controller("Q")
    let old = q.node.linkDomain
    let before = TreeLock.withLock(q.node) { held in TreeLock.domains.generation(old) }
    try await p.addChild(q)
    #expect(f.log.take() == ["Q.willMove(P)"])
    #expect(q.node.linkDomain == p.node.linkDomain)
    // Q left its first domain: what was read there before is stale. (Other
    // tests run meanwhile and may move their objects too, so "unchanged"
    // cannot be asserted here; the appearance tests cover that path.)
    #expect(TreeLock.withLock(domain: old, ifGeneration: before) { held in "unchanged" } == nil)
    try await q.removeFromParent()
    #expect(f.log.take() == ["Q.didMove(nil)"])
    #expect(q.node.linkDomain == p.node.linkDomain)
    // Q's first transaction separates it: P's domain changes generation.
    let shared = TreeLock.withLock(p.node) { held in TreeLock.domains.generation(p.node.linkDomain) }
    try await q.withTransaction { _ in }
    #expect(q.node.linkDomain != p.node.linkDomain)
    #expect(TreeLock.withLock(domain: p.node.linkDomain, ifGeneration: shared) { held in "unchanged" } == nil)
  }

  #if DEBUG
    /// A section naming three objects holds each of their domains once,
    /// however many of them share one, and none after it.
    @Test func aSectionOfThreeObjectsHoldsEachOfTheirDomains_R5() async throws {
      let f = Fixture()
      let (p, q, r) = (f.controller("P"), f.controller("Q"), f.controller("R"))
      try await p.addChild(q)
      #expect(f.log.take() == ["Q.willMove(P)"])
      func held(_ controllers: [RecordingController]) -> [Bool] {
        controllers.map { TreeLock.domains.isHeldByCurrentThread($0.node.linkDomain) }
      }
      #expect(TreeLock.withLock(p.node, q.node, r.node) { _ in held([p, q, r]) } == [true, true, true])
      #expect(TreeLock.withLock(r.node, p.node, q.node) { _ in held([p, q, r]) } == [true, true, true])
      #expect(TreeLock.withLock(p.node, p.node, p.node) { _ in held([p, q]) } == [true, true])
      #expect(held([p, q, r]) == [false, false, false])
    }

    // Reading links outside any section does not compile (it needs a
    // `LinkSection`); reading them in a section of another domain stops a
    // debug build.
    @Test func aLinkReadInAnotherDomainsSectionStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let node = ControllerNode(name: "unlocked")
        var other = ControllerNode(name: "other")
        while other.linkDomain == node.linkDomain { other = ControllerNode(name: "other") }
        TreeLock.withLock(other) { held in _ = node[held].parent }
      }
    }
  #endif
}

/// `adopter`'s scope adding `child` is refused, `child`'s tree being busy,
/// and changes nothing: neither tree, nor the lock of either.
private func expectScopeRefusesToAdopt(
  _ child: any ViewController, by adopter: any ViewController, sourceLocation: SourceLocation = #_sourceLocation
) async {
  let before = snapshot(adopter) + snapshot(child)
  let refused = await #expect(throws: ContainmentError.treeBusy(child.node.id), sourceLocation: sourceLocation) {
    try await adopter.withTransaction { _ in try await adopter.addChild(child) }
  }
  #expect(refused != nil, sourceLocation: sourceLocation)
  #expect(snapshot(adopter) + snapshot(child) == before, sourceLocation: sourceLocation)
  #expect(child.node.linkDomain != adopter.node.linkDomain, sourceLocation: sourceLocation)
}

extension Fixture {
  /// A windowless navigation stack V1, V2, V3 whose V2 parks in its next
  /// `willMove` until the returned gate opens; empties the log.
  fileprivate func stackWhoseSecondParksInWillMove() async throws -> (NavigationController, Gate) {
    let nav = NavigationController(name: "Nav")
    let (v1, v2, v3) = (controller("V1"), controller("V2"), controller("V3"))
    try await nav.setViewControllers([v1, v2, v3], animated: false)
    let gate = Gate()
    await v2.setOnHook { hook in if hook == "willMove" { await gate.wait() } }
    _ = log.take()
    return (nav, gate)
  }
}
