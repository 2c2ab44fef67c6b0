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
  /// Emits the hook's event, then runs the hook on this controller's actor.
  /// Inside a transaction the hook runs marked as "in a hook", so requests it
  /// makes are nested requests (R2).
  ///
  /// With a hook deadline in the controller's environment, the hook runs in
  /// a task of its own, raced against the deadline on the tree's clock
  /// (V1): past it, this returns as if the hook had, and the controller is
  /// faulted; a faulted controller's hooks are skipped and reported.
  nonisolated(nonsending) func deliver(_ hook: Hook, in context: TransactionContext?) async {
    // The transaction may owe this controller more hooks: requests touching
    // it are queued behind the transaction until it ends (R2).
    if let context { node.engagement.engage(in: context.id) }
    // Out of line, so that the common path's frame stays small.
    if HookSupervision.isActive, await deliverSupervised(hook, in: context) { return }
    node.emit(hook.event, transaction: context?.id)
    // The common case (the engine's own context, or none) calls the hook
    // directly: no closure and no frame of `runHook` per hook.
    if let binding = context?.hookBindingNeeded() {
      await TransactionContext.$current.withValue(binding) { await self.invoke(hook) }
    } else {
      await invoke(hook)
    }
  }

  /// Performs the effects an appearance decision returned: hooks and diagnostics, in order.
  nonisolated(nonsending) func perform(
    _ effects: AppearanceMachine.Effects, animated: Bool, in context: TransactionContext?
  ) async {
    for effect in effects {
      if case .unbalanced(let reason) = effect {
        node.emit(.unbalancedAppearanceTransition(reason), transaction: context?.id)
      } else if let hook = Hook(effect, animated: animated) {
        await deliver(hook, in: context)
      }
    }
    // Its window was released while it appeared: it is off screen now.
    if effects.settlesOffScreen { node.events.updateReported { $0.appearance = .disappeared } }
  }

  /// Delivers the hook if this controller is faulted (skipped and reported)
  /// or its environment bounds hooks (V1): the hook is waited for at most
  /// the deadline; past it, this controller is faulted and handed to the
  /// environment's fault policy. Returns false, having done nothing, when
  /// neither applies.
  private nonisolated func deliverSupervised(_ hook: Hook, in context: TransactionContext?) async -> Bool {
    let (faulted, environment) = TreeLock.withLock(node) { (node._isFaulted, node._resolvedEnvironment()) }
    if faulted {
      node.emit(.hookSkipped(hook: hook.event.name), transaction: context?.id)
      return true
    }
    guard let deadline = environment.hookDeadline else { return false }
    node.emit(hook.event, transaction: context?.id)
    // Unstructured on purpose: a hook past its deadline is abandoned, and a
    // child task could not be (its scope would wait for it). It inherits the
    // caller's priority and task-locals; the caller's cancellation reaches it.
    let work = Task {
      if let context { await context.runHook { await self.invoke(hook) } } else { await self.invoke(hook) }
    }
    let inTime = await withTaskCancellationHandler {
      await Deadline.finishes(work, within: deadline, on: environment)
    } onCancel: {
      work.cancel()
    }
    if inTime { return true }
    let first = TreeLock.withLock(node) { () -> Bool in
      defer { node._isFaulted = true }
      return !node._isFaulted
    }
    guard first else { return true }
    node.emit(.hookTimedOut(hook: hook.event.name, deadline: deadline), transaction: context?.id)
    await HookSupervision.faulted(self, policy: environment.faultPolicy, context: context)
    return true
  }

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
