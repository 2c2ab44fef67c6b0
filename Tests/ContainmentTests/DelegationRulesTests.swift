import ContainmentTestKit
import Testing

@testable import Containment

/// A controller with its own status bar preferences and, optionally, a
/// controller it names for the status bar (a child or, wrongly, anything).
private actor StyledController: ViewController {
  nonisolated let node: ControllerNode
  private let style: StatusBarStyle
  private let hidden: Bool
  private var deferTo: (any ViewController)?

  init(_ name: String, style: StatusBarStyle = .default, hidden: Bool = false) {
    self.node = ControllerNode(name: name)
    self.style = style
    self.hidden = hidden
  }

  func setDeferTo(_ controller: (any ViewController)?) { deferTo = controller }

  func preferredStatusBarStyle() async -> StatusBarStyle { style }
  func prefersStatusBarHidden() async -> Bool { hidden }
  func childForStatusBarStyle() async -> (any ViewController)? { deferTo }
  func childForStatusBarHidden() async -> (any ViewController)? { deferTo }
}

/// A container that logs `preferredContentSizeDidChange(forChild:)`.
private actor SizeListeningController: ViewController {
  nonisolated let node: ControllerNode
  let log: HookLog
  init(_ name: String, log: HookLog) {
    self.node = ControllerNode(name: name)
    self.log = log
  }

  func preferredContentSizeDidChange(forChild child: any ViewController) async {
    log.append("\(node.name).preferredContentSizeDidChange(\(child.node.name))")
  }
}

/// §5 D1–D3: delegation down and up the tree, through the built-in containers.
@Suite(.timeLimit(.minutes(1)))
struct DelegationRulesTests {
  /// `listener` as a window's root with `children` installed; empties the log.
  private func onScreen(_ listener: SizeListeningController, with children: [any ViewController], _ f: Fixture)
    async throws -> Window
  {
    let window = Window()
    try await window.setRootViewController(listener)
    for child in children {
      try await listener.addChild(child)
      try await listener.view.addSubview(await child.view)
      await child.didMove(toParent: listener)
    }
    _ = f.log.take()
    return window
  }

  @Test func statusBarAppearanceIsResolvedDownTheTree_D1() async throws {
    let a = StyledController("A", style: .lightContent)
    let b = StyledController("B", style: .darkContent, hidden: true)
    let c = StyledController("C")
    let nav = NavigationController(name: "Nav")
    try await nav.setViewControllers([a, b], animated: false)
    let tabs = TabBarController(name: "Tabs")
    try await tabs.setViewControllers([nav, c])
    let window = Window()
    try await window.setRootViewController(tabs)
    #expect(await window.statusBarStyle() == .darkContent)
    #expect(await window.isStatusBarHidden())
    #expect(await tabs.statusBarStyleController() === b)
    try await nav.pop(animated: false)
    #expect(await window.statusBarStyle() == .lightContent)
    #expect(await window.isStatusBarHidden() == false)
    try await tabs.setSelectedIndex(1)
    #expect(await window.statusBarStyle() == .default)
    // Naming a controller that is not a child counts as nil: the walk stops there.
    await c.setDeferTo(tabs)
    #expect(await tabs.statusBarStyleController() === c)
    #expect(await tabs.statusBarHiddenController() === c)
  }

  @Test func splitStatusBarFollowsTheShownColumn_D1() async throws {
    let p = StyledController("P", style: .lightContent)
    let s = StyledController("S", style: .darkContent)
    let split = SplitViewController(name: "Split")
    try await split.setViewControllers(primary: p, secondary: s)
    let window = Window(traits: TraitCollection(horizontalSizeClass: .compact))
    try await window.setRootViewController(split)
    #expect(await window.statusBarStyle() == .lightContent)
    try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .regular))
    #expect(await window.statusBarStyle() == .darkContent)
  }

  @Test func preferredContentSizeChangesReachTheContainer_D2() async throws {
    let f = Fixture()
    let listener = SizeListeningController("L", log: f.log)
    let a = f.controller("A")
    let b = f.controller("B")
    let nav = NavigationController(name: "Nav")
    try await nav.setViewControllers([a, b], animated: false)
    let window = try await onScreen(listener, with: [nav], f)
    let size = Size(width: 320, height: 480)
    await b.setPreferredContentSize(size)
    #expect(f.log.take() == ["L.preferredContentSizeDidChange(Nav)"])
    #expect(nav.node.preferredContentSize == size)
    await b.setPreferredContentSize(size)
    await a.setPreferredContentSize(Size(width: 1, height: 1))  // not the top: the container keeps its size
    #expect(f.log.take() == [])
    #expect(nav.node.preferredContentSize == size)
    withExtendedLifetime(window) {}
  }

  /// D2 through three levels: a tab bar in a navigation stack in a custom
  /// container; each container passes on only its visible child's size, a
  /// custom container hears each child by name, and a controller with no
  /// parent tells nobody.
  @Test func preferredContentSizeTravelsUpAsFarAsContainersPassItOn_D2() async throws {
    let f = Fixture()
    let listener = SizeListeningController("L", log: f.log)
    let a = f.controller("A")
    let b = f.controller("B")
    let d = f.controller("D")
    let tabs = TabBarController(name: "Tabs")
    try await tabs.setViewControllers([a, b], selectedIndex: 0)
    let nav = NavigationController(name: "Nav")
    try await nav.setViewControllers([tabs], animated: false)
    let window = try await onScreen(listener, with: [nav, d], f)
    let size = Size(width: 320, height: 480)
    await a.setPreferredContentSize(size)
    await b.setPreferredContentSize(Size(width: 1, height: 1))
    await d.setPreferredContentSize(Size(width: 2, height: 2))
    let loose = f.controller("Loose")
    await loose.setPreferredContentSize(Size(width: 3, height: 3))
    #expect(f.log.take() == ["L.preferredContentSizeDidChange(Nav)", "L.preferredContentSizeDidChange(D)"])
    #expect([tabs.node.preferredContentSize, nav.node.preferredContentSize] == [size, size])
    #expect(loose.node.preferredContentSize == Size(width: 3, height: 3))
    withExtendedLifetime(window) {}
  }

  @Test func traitChangesFlowFromTheWindowParentFirst_D3() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let a = f.controller("A")
    let b = f.controller("B")
    let c = f.controller("C")
    let window = try await f.onScreen(r)
    let nav = NavigationController(name: "Nav")
    try await r.addChild(nav)
    try await r.view.addSubview(await nav.view)
    await nav.didMove(toParent: r)
    try await nav.setViewControllers([a, b], animated: false)
    try await f.install(c, in: r)
    let compact = TraitCollection(horizontalSizeClass: .compact)
    try await window.setTraitCollection(compact)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "A.traitCollectionDidChange", "B.traitCollectionDidChange",
        "C.traitCollectionDidChange",
      ])
    #expect(b.traitCollection == compact)
    try await window.setTraitCollection(compact)
    #expect(f.log.take() == [])
  }

  /// A presented controller is shown in its presenter's window: it hears a
  /// trait change too, after its presenter's children, and what it presents
  /// after it.
  @Test func traitChangesReachPresentedControllersAfterTheirPresentersChildren_D3() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let c = f.controller("C")
    let m = f.controller("M")
    let s = f.controller("S")
    let window = try await f.onScreen(r)
    try await f.install(c, in: r)
    try await r.present(m, style: .fullScreen, animated: false)
    try await m.present(s, style: .pageSheet, animated: false)
    _ = f.log.take()
    let compact = TraitCollection(horizontalSizeClass: .compact)
    try await window.setTraitCollection(compact)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "C.traitCollectionDidChange", "M.traitCollectionDidChange",
        "S.traitCollectionDidChange",
      ])
    #expect(s.traitCollection == compact && m.traitCollection == compact)
  }
}
