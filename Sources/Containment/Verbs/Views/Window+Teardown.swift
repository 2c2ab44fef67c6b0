import ContainmentLocking

extension Window {
  /// Tears the window and its tree down in order (V3, E6): the root
  /// controller and the presentations over it go off screen (disappearance
  /// hooks in A1 order, `dismissed` events with reason `tornDown`); the tree
  /// is marked torn down; ``ViewController/viewDidTearDown()`` runs on every
  /// controller, children before parents, within the environment's
  /// ``TeardownPolicy``; then every controller's event streams end with
  /// `terminated`.
  ///
  /// Later requests on the window throw ``ContainmentError/windowTornDown``, on
  /// those controllers ``ContainmentError/tornDown(_:)``.
  ///
  /// One transaction on the window's queue: requests queued before it run
  /// first; those queued behind it fail. A teardown requested before anything
  /// was shown still marks the window. A second call does nothing.
  ///
  /// Cancelling the calling task does not stop a teardown (it is never lost):
  /// it still waits its turn and runs. From inside a hook of the window's
  /// transaction it is queued like any request (R2) and returns at once.
  /// It never throws; it is declared `throws` so that it composes with the
  /// window's other calls.
  public func tearDown() async throws {
    await tearDownInOrder()
  }

  /// ``tearDown()``, which cannot fail.
  func tearDownInOrder() async {
    // The calls into user code running in the tree now (and those that
    // start before the stop phase) are cancelled and abandoned as the
    // policy says, so that the transactions ahead of the teardown end (V3).
    if CallSupervision.isActive {
      runningCalls.beginTeardown(TreeLock.withLock(self) { held in self[held].environment.teardown })
    }
    if TransactionContext.current != nil {
      await runTeardown()
    } else {
      await Task.detached { await self.runTeardown() }.value
    }
  }

  private func runTeardown() async {
    // Only the body's own error can end it (the task is not cancelled
    // while it waits, or it is a nested request that reports through its handle).
    _ = try? await Transaction.perform(on: .window(self)) { context in
      let stopping = TreeLock.withLock(self) { (held: LinkSection) -> [any ViewController]? in
        if self[held].isTornDown { return nil }
        return self[held].rootViewController.map { TreeWalk.stopOrder(held, from: $0) } ?? []
      }
      guard let stopping else { return }
      try await self.replaceRoot(with: nil, animated: false, reason: .tornDown, context: context)
      let environment = TreeLock.withLock([self] + stopping.map(\.node)) {
        (held: LinkSection) -> ContainmentEnvironment in
        self[held].isTornDown = true
        for controller in stopping { controller.node.markTornDown(held) }
        return self[held].environment
      }
      // The stop hooks have their own escalation.
      self.runningCalls.stopEscalating()
      await Teardown.stop(stopping, policy: environment.teardown, environment: environment, context: context)
    }
  }
}
