/// Takes part in a ``TabBarController``'s *user-facing* selections (B3):
/// those made through ``TabBarController/select(_:)``, never those made by
/// code through ``TabBarController/setSelectedIndex(_:)`` or
/// ``TabBarController/setViewControllers(_:selectedIndex:)``.
///
/// Held **weakly**, like every container delegate (see
/// ``NavigationControllerDelegate`` for why). Methods run inside the tab
/// controller's transaction, as hooks of it: a request the delegate makes to
/// the tab controller is queued behind the running one (R2). Defaults:
/// `shouldSelect` answers `true`, `didSelect` does nothing.
public protocol TabBarControllerDelegate: AnyObject, Sendable {
  /// Whether the user may select `viewController`. Answering `false` changes
  /// nothing at all: no hooks, no selection change, no `didSelect`.
  func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: any ViewController) async
    -> Bool
  /// After a user-facing selection was applied (its appearance hooks have
  /// run). Also called when the user re-selects the current tab.
  func tabBarController(_ tabBarController: TabBarController, didSelect viewController: any ViewController) async
}

extension TabBarControllerDelegate {
  /// Default: `true`.
  public func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: any ViewController)
    async -> Bool
  { true }
  /// Default: does nothing.
  public func tabBarController(_ tabBarController: TabBarController, didSelect viewController: any ViewController) async
  {}
}
