import ContainmentLocking
extension NavigationController {
  /// An interactive pop (N7), driven by `driver`: the swipe-back gesture
  /// of UIKit, as one structured call.
  ///
  /// ```swift
  /// let outcome = try await nav.interactivePop { gesture in
  ///   for await x in touches { gesture.update(x / width) }
  ///   return gesture.percentComplete > 0.5 ? .finish : .cancel
  /// }.value
  /// ```
  ///
  /// On `[A, B]`:
  /// - **Start**: A's view is installed below B's; delegate `willShow(A)`;
  ///   `B.viewWillDisappear → A.viewWillAppear → A.viewIsAppearing`. The stack
  ///   still reads `[A, B]`.
  /// - Then `driver` runs, reporting progress on the ``InteractivePopProgress``
  ///   it is given, and returns a decision.
  /// - **Finish** (``InteractiveDecision/finish``): the rest of the
  ///   animation (`(1 - percentComplete) × transitionDuration` on the tree's
  ///   clock), B's view is removed, `B.viewDidDisappear → A.viewDidAppear`;
  ///   then the stack becomes `[A]`, `B.willMove(nil) → B.didMove(nil)`,
  ///   delegate `didShow(A)`. Outcome ``TransitionOutcome/completed``.
  /// - **Cancel** (``InteractiveDecision/cancel``): the animation back
  ///   (`percentComplete × transitionDuration`), then the reversal (A3):
  ///   `A.viewWillDisappear → A.viewDidDisappear` (A's view is detached again
  ///   in between) `→ B.viewWillAppear → B.viewIsAppearing → B.viewDidAppear`;
  ///   delegate `didShow(B)`. The stack stays `[A, B]`; B never gets
  ///   `willMove`/`didMove`. Outcome ``TransitionOutcome/cancelled``.
  ///
  /// The whole gesture is **one transaction** on this controller's queue,
  /// so the design needs no state left open between calls: pushes and pops
  /// requested meanwhile (from other tasks, or from `driver` itself) are
  /// queued behind it and run after it ends (N6). `driver` runs as a
  /// hook of that transaction, in the calling task: awaiting the handle of a
  /// request it made would wait on itself and throws
  /// ``ContainmentError/awaitingOwnTransaction(_:)`` instead (R2).
  ///
  /// If `driver` throws, the gesture counts as cancelled: the pop is rolled
  /// back as for `.cancel` and the error is rethrown (every will-hook still
  /// gets its did-hook or reversal). Cancelling the calling task while
  /// `driver` runs is up to `driver` (it sees the cancellation; throwing
  /// rolls back); cancelled after the decision, the remaining animation is
  /// cut short and the decision is applied, outcome
  /// ``TransitionOutcome/interrupted`` (policy: finish, never half-undo).
  ///
  /// Throws ``ContainmentError/cannotPopRoot``, ``ContainmentError/emptyStack``
  /// or ``ContainmentError/tornDown(_:)`` before anything changes.
  @discardableResult
  public nonisolated func interactivePop(
    _ driver: @escaping @Sendable (InteractivePopProgress) async throws -> InteractivePopDecision
  ) async throws -> TransactionHandle<TransitionOutcome> {
    try await Transaction.perform(on: .controller(self)) { context in
      try await self.runInteractivePop(driver, context: context)
    }
  }

  nonisolated func runInteractivePop(
    _ driver: @escaping @Sendable (InteractivePopProgress) async throws -> InteractivePopDecision,
    context: TransactionContext
  ) async throws -> TransitionOutcome {
    let (popping, revealing) = try TreeLock.withLock(node) {
      (held: LinkSection) -> (any ViewController, any ViewController) in
      if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
      let stack = node[held].children
      guard stack.count >= 2 else { throw stack.isEmpty ? ContainmentError.emptyStack : ContainmentError.cannotPopRoot }
      return (stack[stack.count - 1], stack[stack.count - 2])
    }
    if isViewLoaded { _ = await revealing.loadViewIfNeeded(in: context) }

    var start = AppearancePass(animated: true)
    let (environment, onScreen) = TreeLock.withLock(node) { (held: LinkSection) -> (ContainmentEnvironment, Bool) in
      let environment = node.resolvedEnvironment(held)
      guard let view = node[held].view else { return (environment, false) }
      let onScreen = view.window(held) != nil
      // As in UIKit, the popped controller already reads `isMovingFromParent`
      // in the `viewWillDisappear` that starts the gesture (A5); a cancelled
      // gesture sets it back.
      popping.node[held].appearance.isMovingFromParent = true
      if onScreen, isInstalled(held, popping) {
        start.beginForwarding(held, from: popping, isAppearing: false)
      }
      if revealing.node[held].view != nil {
        install(held, revealing, contentPlacement(held), below: popping)
        if onScreen { start.beginForwarding(held, from: revealing, isAppearing: true) }
      }
      return (environment, onScreen)
    }
    node.emit(.transitionBegan(from: popping.node.id, to: revealing.node.id, options: []), transaction: context.id)
    if let delegate = currentDelegate() {
      await Gateway.call(UserCall("navigationController(_:willShow:animated:)", of: self), in: context, ifAbandoned: {})
      {
        await delegate.navigationController(self, willShow: revealing, animated: true)
      }
    }
    await start.deliverWill(in: context)
    await start.deliverIsAppearing(in: context)

    let progress = InteractivePopProgress(popping: popping, revealing: revealing)
    // A driver no longer waited for cancels the gesture.
    let decision = await Gateway.call(
      UserCall("interactivePop driver", of: self), in: context, ifAbandoned: { .success(.cancel) }
    ) { await Result(catching: { try await driver(progress) }) }
    let finishes = (try? decision.get()) == .finish
    let remaining = finishes ? 1 - progress.percentComplete : progress.percentComplete
    var interrupted = false
    if onScreen {
      interrupted = await Self.animate(for: transitionDuration * remaining, on: environment, animations: nil)
    }

    let outcome: TransitionOutcome
    let shown: any ViewController
    if finishes {
      TreeLock.withLock(node) { held in if isInstalled(held, popping) { uninstall(held, popping) } }
      await start.deliverDid(in: context)
      // The stack change itself: B leaves (willMove(nil), childRemoved,
      // didMove(nil)); A, already shown, stays.
      try await runChildrenChange(reason: .popped, context: context) { stack, held in
        ChildrenChange(
          children: stack.filter { $0 !== popping }, shown: [ShownChild(revealing, placement: contentPlacement(held))])
      }
      outcome = interrupted || Task.isCancelled ? .interrupted : .completed
      shown = revealing
    } else {
      TreeLock.withLock(node) { held in popping.node[held].appearance.isMovingFromParent = false }
      await rollBack(revealing: revealing, popping: popping, onScreen: onScreen, context: context)
      outcome = .cancelled
      shown = popping
    }
    node.emit(.transitionEnded(from: popping.node.id, to: revealing.node.id, outcome: outcome), transaction: context.id)
    if let delegate = currentDelegate() {
      await Gateway.call(UserCall("navigationController(_:didShow:animated:)", of: self), in: context, ifAbandoned: {})
      {
        await delegate.navigationController(self, didShow: shown, animated: true)
      }
    }
    if case .failure(let error) = decision { throw error }
    return outcome
  }

  /// The cancelled gesture's reversal (N7, A3): the revealed controller
  /// disappears again and its view is detached, then the popped one appears
  /// again.
  ///
  /// Each controller's nesting level, opened at the start, closes here.
  private nonisolated func rollBack(
    revealing: any ViewController, popping: any ViewController, onScreen: Bool, context: TransactionContext
  ) async {
    var back = AppearancePass(animated: true)
    TreeLock.withLock(node) { held in
      if onScreen { back.beginForwarding(held, from: revealing, isAppearing: false) }
    }
    await back.deliverWill(in: context)
    TreeLock.withLock(node) { held in if isInstalled(held, revealing) { uninstall(held, revealing) } }
    await back.deliverDid(in: context)
    var again = AppearancePass(animated: true)
    TreeLock.withLock(node) { held in
      if onScreen, isInstalled(held, popping) {
        again.beginForwarding(held, from: popping, isAppearing: true)
      }
    }
    await again.deliverAll(in: context)
  }
}
