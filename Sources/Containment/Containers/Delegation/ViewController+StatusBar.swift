extension ViewController {
  /// The controller whose ``preferredStatusBarStyle()`` wins for this
  /// subtree (D1): starting here, follow ``childForStatusBarStyle()``
  /// down while it names one of the current controller's *children*; `nil`
  /// (or anything that is not a child) means "the current controller".
  ///
  /// Following only children keeps the walk finite whatever a hook returns.
  ///
  /// Asks each controller on its own actor, one after the other; not a
  /// transaction, so the answer reflects the tree as each hook saw it.
  public nonisolated func statusBarStyleController() async -> any ViewController {
    var current: any ViewController = self
    while let next = await current.childForStatusBarStyle(), next !== current, next.node.parent === current {
      current = next
    }
    return current
  }

  /// Like ``statusBarStyleController()``, following ``childForStatusBarHidden()``.
  public nonisolated func statusBarHiddenController() async -> any ViewController {
    var current: any ViewController = self
    while let next = await current.childForStatusBarHidden(), next !== current, next.node.parent === current {
      current = next
    }
    return current
  }

  /// The status bar style in effect for this subtree: the
  /// ``preferredStatusBarStyle()`` of ``statusBarStyleController()`` (D1).
  public nonisolated func resolvedStatusBarStyle() async -> StatusBarStyle {
    await statusBarStyleController().preferredStatusBarStyle()
  }

  /// Whether the status bar is hidden for this subtree: the
  /// ``prefersStatusBarHidden()`` of ``statusBarHiddenController()`` (D1).
  public nonisolated func resolvedStatusBarHidden() async -> Bool {
    await statusBarHiddenController().prefersStatusBarHidden()
  }
}

extension Window {
  /// The status bar style the window shows: its root controller's resolved
  /// style (D1), `.default` without a root.
  public func statusBarStyle() async -> StatusBarStyle {
    await rootViewController?.resolvedStatusBarStyle() ?? .default
  }

  /// Whether the window hides the status bar: its root controller's resolved
  /// answer (D1), `false` without a root.
  public func isStatusBarHidden() async -> Bool {
    await rootViewController?.resolvedStatusBarHidden() ?? false
  }
}
