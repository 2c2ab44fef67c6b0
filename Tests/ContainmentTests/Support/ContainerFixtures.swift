import ContainmentTestKit

@testable import Containment

/// A window driven by `clock` (a manual clock: no real time passes).
func makeWindow(clock: ManualClock, traits: TraitCollection = TraitCollection()) -> Window {
  Window(traits: traits, environment: ContainmentEnvironment(clock: clock))
}

extension Fixture {
  /// A navigation controller named "Nav" on screen in `window`, holding
  /// `stack`; the log is emptied.
  func onScreenNavigation(_ stack: [RecordingController], in window: Window) async throws -> NavigationController {
    let nav = NavigationController(name: "Nav")
    try await window.setRootViewController(nav)
    try await nav.setViewControllers(stack, animated: false)
    _ = log.take()
    return nav
  }
}

/// A navigation delegate that writes "D.willShow(X)" / "D.didShow(X)" to a log.
actor RecordingNavigationDelegate: NavigationControllerDelegate {
  let log: HookLog
  init(log: HookLog) { self.log = log }

  func navigationController(
    _ navigationController: NavigationController, willShow viewController: any ViewController, animated: Bool
  ) async {
    log.append("D.willShow(\(viewController.node.name))")
  }
  func navigationController(
    _ navigationController: NavigationController, didShow viewController: any ViewController, animated: Bool
  ) async {
    log.append("D.didShow(\(viewController.node.name))")
  }
}

/// A tab delegate that logs and answers `shouldSelect` with `allows`.
actor RecordingTabDelegate: TabBarControllerDelegate {
  let log: HookLog
  private var allows: Bool
  init(log: HookLog, allows: Bool = true) {
    self.log = log
    self.allows = allows
  }

  func setAllows(_ allows: Bool) { self.allows = allows }

  func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: any ViewController) async
    -> Bool
  {
    log.append("D.shouldSelect(\(viewController.node.name))=\(allows)")
    return allows
  }
  func tabBarController(_ tabBarController: TabBarController, didSelect viewController: any ViewController) async {
    log.append("D.didSelect(\(viewController.node.name))")
  }
}

/// A split delegate that logs and keeps `keeps` shown on collapse.
actor RecordingSplitDelegate: SplitViewControllerDelegate {
  let log: HookLog
  let keeps: SplitColumn
  init(log: HookLog, keeps: SplitColumn) {
    self.log = log
    self.keeps = keeps
  }

  func splitViewController(
    _ splitViewController: SplitViewController, topColumnForCollapsingToProposedTopColumn proposed: SplitColumn
  ) async -> SplitColumn {
    log.append("D.topColumn(proposed: \(proposed))=\(keeps)")
    return keeps
  }
  func splitViewControllerDidCollapse(_ splitViewController: SplitViewController) async { log.append("D.didCollapse") }
  func splitViewControllerDidExpand(_ splitViewController: SplitViewController) async { log.append("D.didExpand") }
}
