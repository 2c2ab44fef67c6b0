import ContainmentLocking
extension ViewController {
  /// Sets ``ViewController/preferredContentSize`` and, if it changed and
  /// this controller has a parent, tells the parent through its
  /// ``preferredContentSizeDidChange(forChild:)`` hook before returning
  /// (D2).
  ///
  /// The hook runs on the parent's actor, in the caller's task; it is not a
  /// transaction of its own. The rest runs on the caller's executor
  /// (`nonisolated(nonsending)`). Called from inside a transaction (a hook),
  /// the parent's hook counts as a hook of that transaction, so containment
  /// requests it makes are queued behind it (R2). The built-in
  /// containers adopt the size of their visible child (a navigation
  /// controller's top, a tab controller's selected child), so a change
  /// travels up as far as containers pass it on.
  public nonisolated(nonsending) func setPreferredContentSize(_ size: Size) async {
    let parent = TreeLock.withLock(node) { (held: LinkSection) -> (any ViewController)? in
      guard node[held].containerAttributes.value.preferredContentSize != size else { return nil }
      node[held].containerAttributes.value.preferredContentSize = size
      return node[held].parent
    }
    guard let parent else { return }
    let context = TransactionContext.current?.innermostRunning
    await Gateway.call(UserCall("preferredContentSizeDidChange(forChild:)", of: parent), in: context, ifAbandoned: {}) {
      await parent.preferredContentSizeDidChange(forChild: self)
    }
  }
}
