import ContainmentTestKit
import Testing

@testable import Containment

/// V4: every removal event says why.
@Suite(.timeLimit(.minutes(1)))
struct RemovalReasonTests {
  @Test func removeFromParentIsRequested_V4() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    var events = r.treeEvents().makeAsyncIterator()
    await c.willMove(toParent: nil)
    try await c.removeFromParent()
    #expect(f.log.take() == ["C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)"])
    withExtendedLifetime(window) {}
    #expect(await removals(1, from: &events, [p, c]) == ["P childRemoved(C, requested)"])
  }

  @Test func moveBetweenContainersIsMoved_V4() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let q = f.controller("Q")
    try await f.install(q, in: r)
    var events = r.treeEvents().makeAsyncIterator()
    try await q.addChild(c)
    #expect(
      f.log.take() == [
        "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(nil)", "C.willMove(Q)",
      ])
    withExtendedLifetime(window) {}
    #expect(await removals(1, from: &events, [p, q, c]) == ["P childRemoved(C, moved)"])
  }

  @Test func navigationPopsArePoppedAndReplacementIsReplaced_V4() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let d = f.controller("D")
    let e = f.controller("E")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b, c, d], in: window)
    var events = nav.treeEvents().makeAsyncIterator()
    try await nav.pop(animated: false)
    try await nav.popTo(b, animated: false)
    try await nav.interactivePop { progress in
      progress.update(1)
      return .finish
    }
    try await nav.setViewControllers([e], animated: false)
    try await nav.push(b, animated: false)
    try await nav.popToRoot(animated: false)
    #expect(
      f.log.take() == [
        "D.willMove(nil)", "C.viewDidLoad", "D.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
        "D.viewDidDisappear", "C.viewDidAppear", "D.didMove(nil)",
        "C.willMove(nil)", "B.viewDidLoad", "C.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "C.viewDidDisappear", "B.viewDidAppear", "C.didMove(nil)",
        "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "B.viewDidDisappear",
        "A.viewDidAppear", "B.willMove(nil)", "B.didMove(nil)",
        "A.willMove(nil)", "E.willMove(Nav)", "E.viewDidLoad", "A.viewWillDisappear", "E.viewWillAppear",
        "E.viewIsAppearing", "A.viewDidDisappear", "E.viewDidAppear", "A.didMove(nil)", "E.didMove(Nav)",
        "B.willMove(Nav)", "E.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "E.viewDidDisappear",
        "B.viewDidAppear", "B.didMove(Nav)",
        "B.willMove(nil)", "B.viewWillDisappear", "E.viewWillAppear", "E.viewIsAppearing", "B.viewDidDisappear",
        "E.viewDidAppear", "B.didMove(nil)",
      ])
    withExtendedLifetime(window) {}
    #expect(
      await removals(5, from: &events, [nav, a, b, c, d, e]) == [
        "Nav childRemoved(D, popped)", "Nav childRemoved(C, popped)", "Nav childRemoved(B, popped)",
        "Nav childRemoved(A, replaced)", "Nav childRemoved(B, popped)",
      ])
  }

  @Test func tabSplitAndCustomReplacementsAreReplaced_V4() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let p = f.controller("P")
    let s = f.controller("S")
    let c = f.controller("C")
    let x = f.controller("X")
    let y = f.controller("Y")
    let tabs = TabBarController(name: "Tabs")
    let split = SplitViewController(name: "Split")
    let custom = f.controller("Custom")
    var tabEvents = tabs.treeEvents().makeAsyncIterator()
    var splitEvents = split.treeEvents().makeAsyncIterator()
    var customEvents = custom.treeEvents().makeAsyncIterator()
    try await tabs.setViewControllers([a, b])
    try await tabs.setViewControllers([b])
    try await split.setViewControllers(primary: p, secondary: s)
    try await split.setViewControllers(primary: p, secondary: c)
    try await custom.changeChildren(ChildrenChange(children: [x], shown: []))
    try await custom.changeChildren(ChildrenChange(children: [y], shown: []))
    #expect(
      f.log.take() == [
        "A.willMove(Tabs)", "B.willMove(Tabs)", "A.didMove(Tabs)", "B.didMove(Tabs)",
        "A.willMove(nil)", "A.didMove(nil)",
        "P.willMove(Split)", "S.willMove(Split)", "P.didMove(Split)", "S.didMove(Split)",
        "S.willMove(nil)", "C.willMove(Split)", "S.didMove(nil)", "C.didMove(Split)",
        "X.willMove(Custom)", "X.didMove(Custom)",
        "X.willMove(nil)", "Y.willMove(Custom)", "X.didMove(nil)", "Y.didMove(Custom)",
      ])
    #expect(await removals(1, from: &tabEvents, [a]) == ["Tabs childRemoved(A, replaced)"])
    #expect(await removals(1, from: &splitEvents, [s]) == ["Split childRemoved(S, replaced)"])
    #expect(await removals(1, from: &customEvents, [x]) == ["Custom childRemoved(X, replaced)"])
  }

  @Test func dismissalsAreDismissedAndANewRootReplacesPresentations_V4() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let m = f.controller("M")
    let s = f.controller("S")
    let q = f.controller("Q")
    let window = try await f.onScreen(p)
    var events = p.treeEvents().makeAsyncIterator()
    try await p.present(m, style: .fullScreen, animated: false)
    try await m.dismiss(animated: false)
    try await p.present(s, style: .pageSheet, animated: false)
    try await s.interactiveDismiss { progress in
      progress.update(1)
      return .finish
    }
    try await p.present(m, style: .fullScreen, animated: false)
    try await window.setRootViewController(q)
    #expect(
      f.log.take() == [
        "M.viewDidLoad", "P.viewWillDisappear", "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear",
        "P.viewDidDisappear",
        "M.viewWillDisappear", "P.viewWillAppear", "P.viewIsAppearing", "M.viewDidDisappear", "P.viewDidAppear",
        "S.viewDidLoad", "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear",
        "S.viewWillDisappear", "S.viewDidDisappear",
        "P.viewWillDisappear", "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear", "P.viewDidDisappear",
        "M.viewWillDisappear", "M.viewDidDisappear", "Q.viewDidLoad", "Q.viewWillAppear", "Q.viewIsAppearing",
        "Q.viewDidAppear",
      ])
    #expect(
      await removals(3, from: &events, [m, s]) == [
        "P dismissed(M, dismissed)", "P dismissed(S, dismissed)", "P dismissed(M, replaced)",
      ])
  }
}
