import ContainmentLocking

extension ViewController {
  /// Starts an appearance transition by hand (A3, A6): what a container
  /// that answers `shouldAutomaticallyForwardAppearanceMethods == false`
  /// calls on its children.
  ///
  /// Keeps a nesting level: a second `begin` in the same direction fires no
  /// second will-hook (and reports a `nestedBegin` diagnostic); the did-hook
  /// fires when ``endAppearanceTransition()`` brings the level back to zero.
  /// Reversal is legal and is how a transition is cancelled:
  /// `begin(false) → begin(true) → end` delivers `viewWillDisappear,
  /// viewWillAppear, viewDidAppear` and no `viewDidDisappear`. A `begin`
  /// toward the state the controller is already in is ignored and reported
  /// (A4). Never traps.
  ///
  /// If this controller forwards automatically, its installed children follow
  /// it (parent first). Runs the hooks at once in the caller's task; inside a
  /// transaction they are part of it. Runs on the caller's executor
  /// (`nonisolated(nonsending)`, like every verb that waits for no queue):
  /// from a container's hook, only the child's hooks hop, onto the child's actor.
  ///
  /// Refused, with no hook and no change, and reported as a `callIgnored`
  /// event (§8): on a controller whose tree was torn down
  /// (``IgnoredCall/tornDown``; a transaction that started before the
  /// teardown still finishes), and `begin(true)` on a controller that has
  /// no parent and is not a window's root (``IgnoredCall/appearingWithoutWindow``):
  /// a controller appears through a window or through its container, and
  /// `appeared` with nothing that could show it would be a state no window
  /// agrees with. Outside a transaction it is not ordered with a teardown
  /// running in another task: a hook of it that would start on its
  /// controller's actor after that controller's stop began is skipped, with
  /// no event (V3).
  public nonisolated(nonsending) func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) async {
    let context = TransactionContext.current?.innermostRunning
    // Read once: each read of the `node` requirement is a call and a retain.
    let node = self.node
    var pass = AppearancePass(animated: animated)
    // A leaf (the common case) builds no pass: its own decision is all.
    var leafEffects = AppearanceMachine.Effects.none
    let refusal = TreeLock.withLock(node) { (held: LinkSection) -> IgnoredCall? in
      if node[held].supervision.isTornDown, context?.isBody != true { return .tornDown }
      if isAppearing, node[held].parent == nil, node[held].window == nil { return .appearingWithoutWindow }
      if node[held].children.isEmpty {
        leafEffects = node[held].appearance.machine.begin(
          isAppearing: isAppearing, animated: animated, automatic: false)
        return nil
      }
      pass.begin(held, self, isAppearing: isAppearing, automatic: false)
      if !pass.isEmpty {
        pass.begin(held, AppearancePass.forwardingDescendants(held, of: self), isAppearing: isAppearing)
      }
      return nil
    }
    if let refusal {
      node.emit(.callIgnored(refusal), transaction: context?.id)
      return
    }
    if leafEffects.isEmpty {
      await pass.deliverWill(in: context)
    } else if let context {
      await context.withHookBinding { await perform(leafEffects, animated: animated, in: context, node: node) }
    } else {
      // Outside a transaction (manual forwarding's common case): the hooks
      // run from this frame, with no closure frame around them.
      await performInline(leafEffects, animated: animated, in: context, node: node)
    }
  }

  /// Ends an appearance transition begun with
  /// ``beginAppearanceTransition(_:animated:)``: when the nesting level
  /// reaches zero, delivers `viewIsAppearing` (if not yet) and the did-hook,
  /// to this controller and then to its automatically forwarded children.
  ///
  /// An `end` with nothing begun is ignored and reported as an
  /// `unbalancedAppearanceTransition(.endWithoutBegin)` event (A4). On a
  /// controller whose tree was torn down it is refused, with no hook and no
  /// change, and reported as `callIgnored(.tornDown)` (§8); racing with a
  /// teardown from another task, its hooks are skipped as
  /// ``beginAppearanceTransition(_:animated:)``'s are.
  ///
  /// Runs on the caller's executor, like
  /// ``beginAppearanceTransition(_:animated:)``; only the hooks hop.
  public nonisolated(nonsending) func endAppearanceTransition() async {
    let context = TransactionContext.current?.innermostRunning
    typealias Step = (controller: any ViewController, effects: AppearanceMachine.Effects)
    typealias Plan = (own: AppearanceMachine.Effects, animated: Bool, descendants: [Step])
    // Read once: each read of the `node` requirement is a call and a retain.
    let node = self.node
    let plan = TreeLock.withLock(node) { (held: LinkSection) -> Plan? in
      if node[held].supervision.isTornDown, context?.isBody != true { return nil }
      let animated = node[held].appearance.machine.animated
      let own = node[held].appearance.machine.end()
      // A leaf (the common case) builds no list.
      guard own.contains(where: { $0 == .didAppear || $0 == .didDisappear }), !node[held].children.isEmpty else {
        return (own, animated, [])
      }
      var descendants: [Step] = []
      for descendant in AppearancePass.forwardingDescendants(held, of: self) {
        let state = descendant.node[held].appearance.machine.state
        guard state == .appearing || state == .disappearing else { continue }
        descendants.append((descendant, descendant.node[held].appearance.machine.end()))
      }
      return (own, animated, descendants)
    }
    guard let plan else {
      node.emit(.callIgnored(.tornDown), transaction: context?.id)
      return
    }
    // With no descendant to interleave, its own effects are already in
    // order (viewIsAppearing first) and run from this frame.
    if plan.descendants.isEmpty {
      await performInline(plan.own, animated: plan.animated, in: context, node: node)
      return
    }
    // viewIsAppearing for everyone first, then the did-hooks, in order (A1, A2).
    await perform(plan.own.only { $0 == .isAppearing }, animated: plan.animated, in: context, node: node)
    for step in plan.descendants {
      await step.controller.perform(step.effects.only { $0 == .isAppearing }, animated: plan.animated, in: context)
    }
    await perform(plan.own.only { $0 != .isAppearing }, animated: plan.animated, in: context, node: node)
    for step in plan.descendants {
      await step.controller.perform(step.effects.only { $0 != .isAppearing }, animated: plan.animated, in: context)
    }
  }
}
