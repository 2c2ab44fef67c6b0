import ContainmentLocking
extension ViewController {
  /// This controller's navigation item (§5): what a
  /// navigation controller's bar shows while it is on top (title) or just
  /// below the top (back title).
  ///
  /// Synchronous snapshot.
  public nonisolated var navigationItem: NavigationItem {
    TreeLock.withLock(node) { held in node[held].containerAttributes.value.navigationItem }
  }

  /// Replaces this controller's navigation item.
  ///
  /// Synchronous; a navigation controller's
  /// ``NavigationController/navigationBar`` reflects it at once.
  public nonisolated func setNavigationItem(_ item: NavigationItem) {
    TreeLock.withLock(node) { held in node[held].containerAttributes.value.navigationItem = item }
  }

  /// Edits this controller's navigation item in place, atomically.
  ///
  /// `body` runs under the runtime's link lock: keep it to plain assignments.
  public nonisolated func updateNavigationItem(_ body: (inout NavigationItem) -> Void) {
    TreeLock.withLock(node) { held in body(&node[held].containerAttributes.value.navigationItem) }
  }
}
