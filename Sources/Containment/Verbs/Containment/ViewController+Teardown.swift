import ContainmentLocking

extension ViewController {
  /// Ends this controller's tree in order (V3, E6), as a supervisor stops a child.
  ///
  /// First it leaves its parent or presenter (reason
  /// ``RemovalReason/tornDown``; a navigation stack then shows the
  /// controller below, a tab bar selects a neighbour), which takes it off
  /// screen in A1 order, as a transaction on that parent or presenter (it
  /// waits for the transactions running in this controller's tree); then,
  /// as a transaction on this controller (which waits for those its tree
  /// runs by then), it marks it and everything below
  /// it (descendants, presented controllers) torn down, runs
  /// ``viewDidTearDown()`` on each, children before parents, within the
  /// environment's ``TeardownPolicy``, and ends their event streams with a
  /// final `terminated` event. No hook reaches them after their
  /// `viewDidTearDown()`: a hand-forwarded call
  /// (``willMove(toParent:)``, ``beginAppearanceTransition(_:animated:)``
  /// and their pairs) made from outside any transaction is not waited for,
  /// but each of its hooks is skipped once the stop has begun.
  ///
  /// Requests that name them and run after it throw
  /// ``ContainmentError/tornDown(_:)``, including those that were already
  /// waiting for a queue of the torn-down tree: none is dropped.
  ///
  /// On a window's root it is ``Window/tearDown()``. Cancelling the calling
  /// task does not stop it. Controllers already torn down are skipped: a
  /// second call does nothing. From a hook of a transaction that touches
  /// this tree it is a nested request: it runs once that transaction ends.
  /// From its container's scope the leaving runs inline and the stop once
  /// the scope ends (the scope delivered hooks to the child, R2).
  public nonisolated func tearDown() async {
    if TransactionContext.current != nil {
      await tearDownInOrder()
    } else {
      let controller = self
      await Task.detached { await controller.tearDownInOrder() }.value
    }
  }

  private nonisolated func tearDownInOrder() async {
    while true {
      let start = TreeLock.withLock(node) { (held: LinkSection) -> TeardownStart in
        if node[held].supervision.isTornDown { return .done }
        if let window = node[held].window, window[held].rootViewController === self { return .window(window) }
        let environment = node.resolvedEnvironment(held)
        if let parent = node[held].parent { return .leave(parent, environment) }
        if let presenter = node[held].presenting { return .leave(presenter, environment) }
        return .leave(nil, environment)
      }
      let above: (any ViewController)?
      // The environment of the tree it is in: it still bounds the stop hooks
      // once the part has left (read again when it leaves).
      var environment: ContainmentEnvironment
      switch start {
      case .done: return
      case .window(let window): return await window.tearDownInOrder()
      case .leave(let controller, let current): (above, environment) = (controller, current)
      }
      // Neither transaction waits as a cancellable request (the calling task
      // is not this one, or it is a nested request that reports through its
      // handle); only a body's own error ends one.
      if let above {
        // Off screen, on the parent's or presenter's queue: it waits for
        // the transactions running in this controller's tree.
        let left = try? await Transaction.perform(on: .controller(above)) { context -> ContainmentEnvironment in
          let environment = self.node.environment
          if TreeLock.withLock(self.node, { held in self.node[held].presenting === above }) {
            await HookSupervision.leave(self, presenter: above, reason: .tornDown, context: context)
          } else {
            try await HookSupervision.leave(self, parent: above, reason: .tornDown, context: context)
          }
          return environment
        }
        if case .success(let current)? = left?.result { environment = current }
      }
      // The stop, on this controller's own queue: once it has left, the
      // parent's transaction no longer excludes the transactions of its tree.
      let stopping = environment
      let stopped = try? await Transaction.perform(on: .controller(self)) { context -> Bool in
        let controllers = TreeLock.withLock(self.node) { (held: LinkSection) -> [any ViewController]? in
          // Linked elsewhere meanwhile: decide again.
          if self.node[held].parent != nil || self.node[held].presenting != nil || self.node[held].window != nil {
            return nil
          }
          let stopping = TreeWalk.stopOrder(held, from: self).filter { !$0.node[held].supervision.isTornDown }
          for controller in stopping { controller.node.markTornDown(held) }
          return stopping
        }
        guard let controllers else { return false }
        await Teardown.stop(controllers, policy: stopping.teardown, environment: stopping, context: context)
        return true
      }
      // Done, failed, or queued behind the transaction whose hook asked for
      // it (which runs it later, once: linked elsewhere by then, the
      // controller stays as it is).
      guard case .success(false)? = stopped?.result else { return }
    }
  }
}

/// Where a controller's teardown starts (``ViewController/tearDown()``).
private enum TeardownStart {
  /// It was torn down already.
  case done
  /// It is a window's root: the window's teardown.
  case window(Window)
  /// It leaves its parent or presenter first (nil: it has neither); the
  /// environment of its tree.
  case leave((any ViewController)?, ContainmentEnvironment)
}
