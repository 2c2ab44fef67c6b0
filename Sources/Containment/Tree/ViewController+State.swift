extension ViewController {
  /// The current appearance state (§3).
  ///
  /// A synchronous snapshot, read under the link lock; it never suspends.
  public nonisolated var appearanceState: AppearanceState { node.appearanceState }

  /// True during the appearance hooks caused by being added to a parent (A5).
  public nonisolated var isMovingToParent: Bool { node.isMovingToParent }

  /// True during the appearance hooks caused by being removed from a parent (A5).
  public nonisolated var isMovingFromParent: Bool { node.isMovingFromParent }

  /// Whether this controller's tree was torn down (§8).
  public nonisolated var isTornDown: Bool { node.isTornDown }

  /// The environment (clock) of this controller: its own if set, else the
  /// nearest ancestor's (or presenter's), else its window's, else
  /// ``ContainmentEnvironment/default``.
  ///
  /// Setting it changes the clock of this controller and its subtree.
  public nonisolated var environment: ContainmentEnvironment {
    get { node.environment }
    set { node.environment = newValue }
  }

  /// The size this controller would like its container to give it (D2); use
  /// ``setPreferredContentSize(_:)`` to change it.
  public nonisolated var preferredContentSize: Size { node.preferredContentSize }
}
