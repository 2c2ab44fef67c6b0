/// One lifecycle hook the runtime calls on a controller, with the event it emits.
enum Hook: Sendable {
  case viewDidLoad
  case viewWillAppear(Bool)
  case viewIsAppearing(Bool)
  case viewDidAppear(Bool)
  case viewWillDisappear(Bool)
  case viewDidDisappear(Bool)
  case willMove(toParent: (any ViewController)?)
  case didMove(toParent: (any ViewController)?)
  case traitCollectionDidChange(previous: TraitCollection?, current: TraitCollection)
  case viewDidTearDown

  var event: LifecycleEvent.Kind {
    switch self {
    case .viewDidLoad: .viewDidLoad
    case .viewWillAppear(let animated): .viewWillAppear(animated: animated)
    case .viewIsAppearing(let animated): .viewIsAppearing(animated: animated)
    case .viewDidAppear(let animated): .viewDidAppear(animated: animated)
    case .viewWillDisappear(let animated): .viewWillDisappear(animated: animated)
    case .viewDidDisappear(let animated): .viewDidDisappear(animated: animated)
    case .willMove(let parent): .willMove(toParent: parent?.node.id)
    case .didMove(let parent): .didMove(toParent: parent?.node.id)
    case .traitCollectionDidChange(_, let current): .traitCollectionDidChange(current)
    case .viewDidTearDown: .viewDidTearDown
    }
  }

  init?(_ effect: AppearanceMachine.Effect, animated: Bool) {
    switch effect {
    case .willAppear: self = .viewWillAppear(animated)
    case .isAppearing: self = .viewIsAppearing(animated)
    case .didAppear: self = .viewDidAppear(animated)
    case .willDisappear: self = .viewWillDisappear(animated)
    case .didDisappear: self = .viewDidDisappear(animated)
    case .unbalanced: return nil
    }
  }
}

extension ViewController {
  /// Emits the hook's event, then runs the hook on this controller's actor,
  /// through the gateway for user code (``Gateway``).
  ///
  /// Inside a transaction the hook runs marked as "in a hook", so requests it
  /// makes are nested requests (R2), and the controller counts as engaged in
  /// the transaction until it ends (``Engagement``).
  ///
  /// Supervised (a deadline, stall reports or a teardown policy in the
  /// controller's environment), a faulted controller's hooks are skipped and
  /// reported, and a hook no longer waited for returns as if it had.
  @inline(__always)
  nonisolated(nonsending) func deliver(_ hook: Hook, in context: TransactionContext?) async {
    await deliver(hook, in: context, node: node)
  }

  /// ``deliver(_:in:)`` with this controller's node, read by the caller:
  /// each read of the `node` requirement is a call and a retain.
  ///
  /// Inlined: the common case (no supervision; the engine's own context, or
  /// none) calls the hook from the caller's frame, with no closure and no
  /// frame of its own.
  @inline(__always)
  nonisolated(nonsending) func deliver(_ hook: Hook, in context: TransactionContext?, node: ControllerNode) async {
    // The transaction may owe this controller more hooks: requests touching
    // it are queued behind the transaction until it ends (R2).
    // The id is read once: each binding of `context` retained and released it.
    guard let context else {
      // Outside any transaction (a hand-forwarded call, a view loaded from
      // outside): nothing orders it with a teardown, so the hook checks the
      // stop mark on the controller's actor, where the stop hook runs too.
      if CallSupervision.isActive { return await deliverSupervised(hook, in: nil) }
      return await invokeUnlessStopped(hook, node: node)
    }
    let transaction = context.id
    node.engagement.engage(in: transaction)
    if CallSupervision.isActive { return await deliverSupervised(hook, in: context) }
    node.emit(hook.event, transaction: transaction)
    if let binding = context.hookBindingNeeded() {
      await deliver(hook, boundTo: binding)
    } else {
      await invoke(hook)
    }
  }

  /// Delivers through the gateway, which announces the hook's event (outside
  /// a transaction, and for the stop hook, the hook announces it on the
  /// actor: ``invokeUnlessStopped(_:node:)``).
  private nonisolated(nonsending) func deliverSupervised(
    _ hook: Hook, in context: TransactionContext?, treeEnvironment: ContainmentEnvironment? = nil
  ) async {
    let call = UserCall(hook.event.name, of: self)
    let node = self.node
    if context == nil {
      await Gateway.call(call, in: nil, treeEnvironment: treeEnvironment, ifAbandoned: {}) {
        await self.invokeUnlessStopped(hook, node: node)
      }
    } else if case .viewDidTearDown = hook {
      let transaction = context?.id
      await Gateway.call(call, in: context, treeEnvironment: treeEnvironment, ifAbandoned: {}) {
        await self.announceAndInvoke(hook, node: node, transaction: transaction)
      }
    } else {
      await Gateway.call(call, in: context, announcing: hook.event, treeEnvironment: treeEnvironment, ifAbandoned: {}) {
        await self.invoke(hook)
      }
    }
  }

  /// On this controller's actor: announces and runs a hook called from
  /// outside any transaction, unless the controller's stop has begun (V3).
  ///
  /// The stop hook is announced and runs on this actor too, after the mark
  /// was set: such a hook and its event either come before the stop hook's
  /// or not at all (the actor runs one job at a time, and a hook's check,
  /// event and start are one job).
  @inline(__always)
  private func invokeUnlessStopped(_ hook: Hook, node: ControllerNode) async {
    if node.stopMark.isSet { return }
    await announceAndInvoke(hook, node: node, transaction: nil)
  }

  /// On this controller's actor: emits the hook's event, then runs the hook.
  @inline(__always)
  private func announceAndInvoke(_ hook: Hook, node: ControllerNode, transaction: TransactionID?) async {
    node.emit(hook.event, transaction: transaction)
    await invoke(hook)
  }

  /// Delivers ``viewDidTearDown()`` in a teardown of the tree whose
  /// environment is `treeEnvironment` (V3): the tree has left its window or
  /// parent by then, and that environment still supervises the stop hook
  /// (V1) unless the controller or an ancestor sets its own.
  nonisolated(nonsending) func deliverStopHook(in context: TransactionContext?, treeEnvironment: ContainmentEnvironment)
    async
  {
    let node = self.node
    let transaction = context?.id
    if let transaction { node.engagement.engage(in: transaction) }
    if CallSupervision.isActive {
      return await deliverSupervised(.viewDidTearDown, in: context, treeEnvironment: treeEnvironment)
    }
    // Announced on the actor, like a hook from outside any transaction:
    // such a hook's event never follows this one (``StopMark``).
    if let binding = context?.hookBindingNeeded() {
      await TransactionContext.$current.withValue(binding) {
        await self.announceAndInvoke(.viewDidTearDown, node: node, transaction: transaction)
      }
    } else {
      await announceAndInvoke(.viewDidTearDown, node: node, transaction: transaction)
    }
  }

  /// Runs the hook with the task bound to `binding` (user code's own
  /// context: a scope's hooks).
  private nonisolated(nonsending) func deliver(_ hook: Hook, boundTo binding: TransactionContext) async {
    await TransactionContext.$current.withValue(binding) { await self.invoke(hook) }
  }

  /// Performs the effects an appearance decision returned: hooks and diagnostics, in order.
  @inline(__always)
  nonisolated(nonsending) func perform(
    _ effects: AppearanceMachine.Effects, animated: Bool, in context: TransactionContext?
  ) async {
    await perform(effects, animated: animated, in: context, node: node)
  }

  /// ``perform(_:animated:in:)`` with this controller's node, read by the
  /// caller.
  nonisolated(nonsending) func perform(
    _ effects: AppearanceMachine.Effects, animated: Bool, in context: TransactionContext?, node: ControllerNode
  ) async {
    await performInline(effects, animated: animated, in: context, node: node)
  }

  /// ``perform(_:animated:in:node:)``, inlined into the caller's frame.
  ///
  /// For a verb whose whole work on a leaf is these effects (manual
  /// forwarding), so that the hooks are called from its frame. Everywhere
  /// else the call keeps its frame, which keeps the engine's frames small.
  @inline(__always)
  nonisolated(nonsending) func performInline(
    _ effects: AppearanceMachine.Effects, animated: Bool, in context: TransactionContext?, node: ControllerNode
  ) async {
    for effect in effects {
      if case .unbalanced(let reason) = effect {
        node.emit(.unbalancedAppearanceTransition(reason), transaction: context?.id)
      } else if let hook = Hook(effect, animated: animated) {
        await deliver(hook, in: context, node: node)
      }
    }
    // Its window was released while it appeared: it is off screen now.
    if effects.settlesOffScreen { node.events.updateReported { $0.appearance = .disappeared } }
  }

  @inline(__always)
  private func invoke(_ hook: Hook) async {
    switch hook {
    case .viewDidLoad: await viewDidLoad()
    case .viewWillAppear(let animated): await viewWillAppear(animated)
    case .viewIsAppearing(let animated): await viewIsAppearing(animated)
    case .viewDidAppear(let animated): await viewDidAppear(animated)
    case .viewWillDisappear(let animated): await viewWillDisappear(animated)
    case .viewDidDisappear(let animated): await viewDidDisappear(animated)
    case .willMove(let parent): await viewWillMove(toParent: parent)
    case .didMove(let parent): await viewDidMove(toParent: parent)
    case .traitCollectionDidChange(let previous, _): await traitCollectionDidChange(previous)
    case .viewDidTearDown: await viewDidTearDown()
    }
  }
}
