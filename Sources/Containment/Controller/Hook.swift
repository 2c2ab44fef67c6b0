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
  nonisolated func deliver(_ hook: Hook, in context: TransactionContext?) async {
    node.emit(hook.event, transaction: context?.id)
    if let context {
      await context.runHook { await self.invoke(hook) }
    } else {
      await invoke(hook)
    }
  }

  /// Performs the effects an appearance decision returned: hooks and diagnostics, in order.
  nonisolated func perform(_ effects: [AppearanceMachine.Effect], animated: Bool, in context: TransactionContext?) async
  {
    for effect in effects {
      if case .unbalanced(let reason) = effect {
        node.emit(.unbalancedAppearanceTransition(reason), transaction: context?.id)
      } else if let hook = Hook(effect, animated: animated) {
        await deliver(hook, in: context)
      }
    }
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
