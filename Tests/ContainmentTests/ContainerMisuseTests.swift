import ContainmentTestKit
import Testing

@testable import Containment

/// §8 for the built-in containers: a typed error, and the tree unchanged.
@Suite(.timeLimit(.minutes(1)))
struct ContainerMisuseTests {
  @Test func pushingAControllerAlreadyOnThisStackThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    let before = snapshot(nav)
    await #expect(throws: ContainmentError.alreadyOnStack(a.node.id)) { try await nav.push(a, animated: false) }
    await #expect(throws: ContainmentError.alreadyOnStack(b.node.id)) { try await nav.push(b, animated: false) }
    await #expect(throws: ContainmentError.cannotAddSelfAsChild(nav.node.id)) {
      try await nav.push(nav, animated: false)
    }
    await #expect(throws: ContainmentError.sameController(a.node.id)) {
      try await nav.setViewControllers([a, a], animated: false)
    }
    #expect(snapshot(nav) == before)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func pushingAControllerOnAnotherStackOrContainerThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let x = f.controller("X")
    let p = f.controller("P")
    let c = f.controller("C")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    let other = NavigationController(name: "Other")
    try await other.setViewControllers([x], animated: false)
    try await p.addChild(c)
    _ = f.log.take()
    let before = snapshot(nav)
    let otherBefore = snapshot(other)
    await #expect(throws: ContainmentError.alreadyOnStack(x.node.id)) { try await nav.push(x, animated: false) }
    await #expect(throws: ContainmentError.alreadyChild(child: c.node.id, parent: p.node.id)) {
      try await nav.push(c, animated: false)
    }
    await #expect(throws: ContainmentError.alreadyInWindow(nav.node.id)) { try await other.push(nav, animated: false) }
    #expect(snapshot(nav) == before)
    #expect(snapshot(other) == otherBefore)
    #expect(c.parent === p)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func poppingTheRootThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    let before = snapshot(nav)
    await #expect(throws: ContainmentError.cannotPopRoot) { try await nav.pop(animated: false) }
    await #expect(throws: ContainmentError.cannotPopRoot) { try await nav.interactivePop { _ in .finish } }
    #expect(snapshot(nav) == before)
    let empty = NavigationController(name: "Empty")
    await #expect(throws: ContainmentError.emptyStack) { try await empty.pop(animated: false) }
    await #expect(throws: ContainmentError.emptyStack) { try await empty.popToRoot(animated: false) }
    #expect(empty.viewControllers.isEmpty)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func poppingToAControllerNotOnTheStackThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let stranger = f.controller("X")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    let before = snapshot(nav)
    await #expect(throws: ContainmentError.notOnStack(stranger.node.id)) {
      try await nav.popTo(stranger, animated: false)
    }
    #expect(snapshot(nav) == before)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func selectingAnOutOfRangeTabThrowsAndChangesNothing_misuse() async throws {
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
    let before = snapshot(tabs)
    await #expect(throws: ContainmentError.tabIndexOutOfRange(index: 2, count: 2)) { try await tabs.select(2) }
    await #expect(throws: ContainmentError.tabIndexOutOfRange(index: -1, count: 2)) {
      try await tabs.setSelectedIndex(-1)
    }
    await #expect(throws: ContainmentError.tabIndexOutOfRange(index: 5, count: 1)) {
      try await tabs.setViewControllers([a], selectedIndex: 5)
    }
    #expect(snapshot(tabs) == before)
    #expect(tabs.selectedIndex == 0)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func namingOneControllerForBothSplitColumnsThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let s = f.controller("S")
    let split = SplitViewController(name: "Split")
    try await split.setViewControllers(primary: p, secondary: s)
    _ = f.log.take()
    let before = snapshot(split)
    await #expect(throws: ContainmentError.sameController(p.node.id)) {
      try await split.setViewControllers(primary: p, secondary: p)
    }
    #expect(snapshot(split) == before)
    #expect(split.primaryViewController === p && split.secondaryViewController === s)
    #expect(f.log.take() == [])
  }

  /// Policy, as for a push: a tab or a column that has another parent is
  /// refused, never moved; both containers stay as they were.
  @Test func settingTabsOrColumnsWithAnotherParentsChildThrowsAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let p = f.controller("P")
    let c = f.controller("C")
    let s = f.controller("S")
    let tabs = TabBarController(name: "Tabs")
    try await tabs.setViewControllers([a])
    let window = Window()
    try await window.setRootViewController(tabs)
    let split = SplitViewController(name: "Split")
    try await split.setViewControllers(primary: s, secondary: f.controller("T"))
    try await p.addChild(c)
    _ = f.log.take()
    let (tabsBefore, splitBefore, pBefore) = (snapshot(tabs), snapshot(split), snapshot(p))
    await #expect(throws: ContainmentError.alreadyChild(child: c.node.id, parent: p.node.id)) {
      try await tabs.setViewControllers([a, c])
    }
    await #expect(throws: ContainmentError.alreadyChild(child: c.node.id, parent: p.node.id)) {
      try await split.setViewControllers(primary: s, secondary: c)
    }
    #expect(snapshot(tabs) == tabsBefore)
    #expect(snapshot(split) == splitBefore)
    #expect(snapshot(p) == pBefore)
    #expect(c.parent === p)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func usingAContainerAfterTeardownThrows_misuse() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = Window()
    let nav = try await f.onScreenNavigation([a], in: window)
    try await window.tearDown()
    _ = f.log.take()
    await #expect(throws: ContainmentError.tornDown(nav.node.id)) { try await nav.push(b, animated: false) }
    await #expect(throws: ContainmentError.tornDown(nav.node.id)) { try await nav.popToRoot(animated: false) }
    #expect(names(nav.viewControllers) == ["A"])
    #expect(b.parent == nil)
    #expect(f.log.take() == [])
  }
}
