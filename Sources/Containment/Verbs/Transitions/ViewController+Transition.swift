import ContainmentLocking
extension ViewController {
  /// Swaps two children's views with an animation (T1–T4), like UIKit's
  /// `transition(from:to:duration:options:animations:completion:)`.
  ///
  /// Order (policy, T2): `from.viewWillDisappear → to.viewWillAppear` →
  /// `to`'s view is added beside `from`'s (same superview, same frame) →
  /// `to.viewIsAppearing` → `animations` run while the transition waits
  /// `duration` on the tree's injected clock → `from`'s view is removed →
  /// `from.viewDidDisappear → to.viewDidAppear` → returns. The appearance
  /// hooks are delivered only if this container forwards automatically and
  /// its views are on screen; a manual-forwarding container calls
  /// begin/end itself. `willMove`/`didMove` remain the caller's (C1/C2).
  ///
  /// Structured concurrency: `animations` runs as a child task of the
  /// transition; the transition returns only after both it and the clock wait
  /// are done. No unstructured task is created.
  ///
  /// Cancellation (T4, policy **finish**): if the task driving the
  /// transition is cancelled at any point, the remaining wait is skipped, the
  /// animations task is cancelled, and the transition still completes: every
  /// will-hook gets its did-hook, `from`'s view is removed and `to`'s is
  /// installed. The outcome is ``TransitionOutcome/interrupted``.
  ///
  /// One transaction on this container's queue (waiting, cancellation while
  /// queued and nesting as for ``addChild(_:)``). Throws
  /// ``ContainmentError/notAChild(child:parent:)``,
  /// ``ContainmentError/sameController(_:)``,
  /// ``ContainmentError/viewNotInstalled(_:)``,
  /// ``ContainmentError/viewAlreadyInstalled(_:)`` or
  /// ``ContainmentError/tornDown(_:)`` before anything changes (T1).
  @discardableResult
  public nonisolated func transition(
    from: any ViewController,
    to: any ViewController,
    duration: Duration = .zero,
    options: TransitionOptions = [],
    animations: (@Sendable () async -> Void)? = nil
  ) async throws -> TransactionHandle<TransitionOutcome> {
    try await Transaction.perform(on: .controller(self)) { context in
      try await self.runTransition(
        from: from, to: to, duration: duration, animated: duration > .zero, options: options, animations: animations,
        context: context)
    }
  }

  /// The transition itself, inside a transaction on this container's queue.
  nonisolated func runTransition(
    from: any ViewController,
    to: any ViewController,
    duration: Duration,
    animated: Bool,
    options: TransitionOptions = [],
    animations: (@Sendable () async -> Void)?,
    context: TransactionContext
  ) async throws -> TransitionOutcome {
    try TreeLock.withLock(node, from.node, to.node) { held in try validateTransition(held, from: from, to: to) }
    let toView = await to.loadViewIfNeeded(in: context)
    var pass = AppearancePass(animated: animated)
    let environment = try TreeLock.withLock([node, from.node, to.node, toView]) {
      (held: LinkSection) -> ContainmentEnvironment in
      try validateTransition(held, from: from, to: to)
      guard let fromView = from.node[held].view, let superview = fromView[held].superview else {
        throw ContainmentError.viewNotInstalled(from.node.id)
      }
      toView[held].frame = fromView[held].frame
      let index = superview[held].subviews.firstIndex { $0 === fromView }.map { $0 + 1 }
      superview.link(held, toView, at: index)
      if shouldAutomaticallyForwardAppearanceMethods, fromView.window(held) != nil {
        pass.beginForwarding(held, from: from, isAppearing: false)
        pass.beginForwarding(held, from: to, isAppearing: true)
      }
      return node.resolvedEnvironment(held)
    }
    node.emit(.transitionBegan(from: from.node.id, to: to.node.id, options: options), transaction: context.id)
    await pass.deliverWill(in: context)
    await pass.deliverIsAppearing(in: context)
    let interrupted = await Self.animate(
      for: duration, on: environment, animations: animations, of: self, bodyOf: context)
    TreeLock.withLock(node) { held in from.node[held].view?.unlink(held) }
    await pass.deliverDid(in: context)
    let outcome: TransitionOutcome = interrupted || Task.isCancelled ? .interrupted : .completed
    node.emit(.transitionEnded(from: from.node.id, to: to.node.id, outcome: outcome), transaction: context.id)
    return outcome
  }

  /// Under the link lock: T1.
  nonisolated func validateTransition(_ held: LinkSection, from: any ViewController, to: any ViewController) throws {
    if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
    for child in [from, to] where !child.node.hasParent(held, self) {
      throw ContainmentError.notAChild(child: child.node.id, parent: node.id)
    }
    if from === to { throw ContainmentError.sameController(from.node.id) }
    guard let fromView = from.node[held].view, fromView[held].superview != nil else {
      throw ContainmentError.viewNotInstalled(from.node.id)
    }
    if let toView = to.node[held].view, toView[held].superview != nil {
      throw ContainmentError.viewAlreadyInstalled(to.node.id)
    }
  }

  /// Runs `animations` (`owner`'s user code, through the ``Gateway``, as
  /// part of the body of `context`: see ``TransactionContext/runAsBody(_:)``)
  /// as a child task while waiting `duration` on the clock.
  ///
  /// Returns true if the wait was cut short by cancellation.
  nonisolated(nonsending) static func animate(
    for duration: Duration,
    on environment: ContainmentEnvironment,
    animations: (@Sendable () async -> Void)?,
    of owner: (any ViewController)? = nil,
    bodyOf context: TransactionContext? = nil
  ) async -> Bool {
    // Nothing to run and nothing to wait for: no task group, no child task.
    if duration <= .zero, animations == nil { return false }
    return await withTaskGroup(of: Bool.self) { group in
      if let animations, let owner {
        group.addTask {
          await Gateway.call(UserCall("animations", of: owner, as: .body), in: context, ifAbandoned: {}) {
            await animations()
          }
          return false
        }
      }
      group.addTask {
        do {
          try await environment.sleep(for: duration)
          return false
        } catch {
          return true
        }
      }
      var interrupted = false
      for await result in group {
        interrupted = interrupted || result
        if interrupted { group.cancelAll() }
      }
      return interrupted
    }
  }
}
