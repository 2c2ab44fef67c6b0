import ContainmentTestKit
import Testing

@testable import Containment

/// §5 B1–B3: the tab controller.
@Suite(.timeLimit(.minutes(1)))
struct TabRulesTests {
  private let content = Rect(x: 0, y: 0, width: 1024, height: 768 - TabBarController.tabBarHeight)

  @Test func onlyTheSelectedTabIsInstalledAndOthersLoadLazily_B1() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let tabs = TabBarController(name: "Tabs")
    try await tabs.setViewControllers([a, b, c], selectedIndex: 0)
    #expect(
      f.log.take() == [
        "A.willMove(Tabs)", "B.willMove(Tabs)", "C.willMove(Tabs)",
        "A.didMove(Tabs)", "B.didMove(Tabs)", "C.didMove(Tabs)",
      ])
    let window = Window()
    try await window.setRootViewController(tabs)
    #expect(f.log.take() == ["A.viewDidLoad", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear"])
    #expect(!b.isViewLoaded && !c.isViewLoaded)
    #expect(a.viewIfLoaded?.frame == content)
    try await tabs.setSelectedIndex(2)
    #expect(
      f.log.take() == [
        "C.viewDidLoad", "A.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
        "A.viewDidDisappear", "C.viewDidAppear",
      ])
    #expect(!b.isViewLoaded)
    #expect(tabs.selectedIndex == 2)
    #expect(a.viewIfLoaded?.superview == nil)
    #expect(c.viewIfLoaded?.frame == content)
    withExtendedLifetime(window) {}
    #expect(tabs.checkInvariants().isEmpty)
  }

  @Test func switchingTabsOrdersHooks_B2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let tabs = TabBarController(name: "Tabs")
    try await tabs.setViewControllers([a, b])
    let window = Window()
    try await window.setRootViewController(tabs)
    _ = f.log.take()
    try await tabs.setSelectedIndex(1)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear",
      ])
    try await tabs.setSelectedIndex(0)
    #expect(
      f.log.take() == [
        "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "B.viewDidDisappear", "A.viewDidAppear",
      ])
    try await tabs.setSelectedIndex(0)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
    #expect(tabs.checkInvariants().isEmpty)
  }

  @Test func replacingTheSelectedTabSwitchesBetweenTheMoves_B2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let x = f.controller("X")
    let tabs = TabBarController(name: "Tabs")
    try await tabs.setViewControllers([a, b])
    let window = Window()
    try await window.setRootViewController(tabs)
    _ = f.log.take()
    try await tabs.setViewControllers([x, b], selectedIndex: 0)
    #expect(
      f.log.take() == [
        "A.willMove(nil)", "X.willMove(Tabs)",
        "X.viewDidLoad", "A.viewWillDisappear", "X.viewWillAppear", "X.viewIsAppearing",
        "A.viewDidDisappear", "X.viewDidAppear",
        "A.didMove(nil)", "X.didMove(Tabs)",
      ])
    #expect(names(tabs.viewControllers) == ["X", "B"])
    #expect(a.parent == nil)
    withExtendedLifetime(window) {}
    #expect(tabs.checkInvariants().isEmpty)
  }

  @Test func delegateIsAskedOnlyForUserFacingSelections_B3() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let tabs = TabBarController(name: "Tabs")
    let delegate = RecordingTabDelegate(log: f.log)
    tabs.delegate = delegate
    try await tabs.setViewControllers([a, b])
    let window = Window()
    try await window.setRootViewController(tabs)
    _ = f.log.take()
    try await tabs.setSelectedIndex(1)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear",
      ])
    #expect(try await tabs.select(0).value)
    #expect(
      f.log.take() == [
        "D.shouldSelect(A)=true",
        "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "B.viewDidDisappear", "A.viewDidAppear",
        "D.didSelect(A)",
      ])
    #expect(try await tabs.select(0).value)
    #expect(f.log.take() == ["D.shouldSelect(A)=true", "D.didSelect(A)"])
    withExtendedLifetime(window) {}
  }

  @Test func refusedSelectionChangesNothing_B3() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let tabs = TabBarController(name: "Tabs")
    let delegate = RecordingTabDelegate(log: f.log, allows: false)
    tabs.delegate = delegate
    try await tabs.setViewControllers([a, b])
    let window = Window()
    try await window.setRootViewController(tabs)
    _ = f.log.take()
    let before = snapshot(tabs)
    #expect(try await tabs.select(1).value == false)
    #expect(f.log.take() == ["D.shouldSelect(B)=false"])
    #expect(snapshot(tabs) == before)
    #expect(tabs.selectedIndex == 0)
    #expect(!b.isViewLoaded)
    withExtendedLifetime(window) {}
  }
}
