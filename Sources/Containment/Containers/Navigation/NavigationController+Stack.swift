import ContainmentLocking

extension NavigationController {
  /// Pushes `controller` on top of the stack (N2): `controller.willMove(self)`
  /// → `controller.viewDidLoad` (first time, if this view is loaded) →
  /// delegate `willShow` → `oldTop.viewWillDisappear` → `controller.viewWillAppear`
  /// → `controller.viewIsAppearing` → (``transitionDuration`` on the tree's
  /// clock if `animated`) → `oldTop.viewDidDisappear` → `controller.viewDidAppear`
  /// → `controller.didMove(self)` → delegate `didShow`.
  ///
  /// Afterwards the old top's view is detached; it stays on the stack.
  /// Appearance hooks only if this view is on screen.
  ///
  /// One transaction on this controller's queue; see the type's notes for
  /// waiting, nesting and cancellation. Returns the transition's outcome.
  ///
  /// Throws, before anything changes: ``ContainmentError/alreadyOnStack(_:)``
  /// if `controller` is on this or another navigation stack (policy: an
  /// error, never a move), ``ContainmentError/alreadyChild(child:parent:)``
  /// if it is a child of another kind of container,
  /// ``ContainmentError/cannotAddSelfAsChild(_:)``,
  /// ``ContainmentError/wouldCreateCycle(child:parent:)``,
  /// ``ContainmentError/alreadyInWindow(_:)``, ``ContainmentError/childInFlight(_:)``
  /// or ``ContainmentError/tornDown(_:)``; from a transaction's body,
  /// ``ContainmentError/treeBusy(_:)`` (see ``ViewController/addChild(_:)``).
  @discardableResult
  public nonisolated func push(_ controller: any ViewController, animated: Bool) async throws
    -> TransactionHandle<TransitionOutcome>
  {
    try await Transaction.perform(on: .controller(self), adopting: [controller]) { context in
      try await self.changeStack(animated: animated, reason: .replaced, context: context, involving: [controller]) {
        _, held in
        if controller.node.hasParent(held, self) { throw ContainmentError.alreadyOnStack(controller.node.id) }
        return .push(controller)
      }.outcome
    }
  }

  /// Pops the top of the stack and returns it (N3):
  /// `top.willMove(nil)` → (revealed controller's `viewDidLoad`, first time) →
  /// delegate `willShow` → `top.viewWillDisappear` → `revealed.viewWillAppear`
  /// → `revealed.viewIsAppearing` → (animation) → `top.viewDidDisappear` →
  /// `revealed.viewDidAppear` → `top.didMove(nil)` → delegate `didShow`.
  ///
  /// From the moment the request runs, the stack reads without the popped
  /// controller, and during its hooks its `isMovingFromParent` is true.
  ///
  /// One transaction on this controller's queue. Throws
  /// ``ContainmentError/cannotPopRoot`` on a one-entry stack,
  /// ``ContainmentError/emptyStack`` on an empty one,
  /// ``ContainmentError/tornDown(_:)``; then nothing changed.
  @discardableResult
  public nonisolated func pop(animated: Bool) async throws -> TransactionHandle<any ViewController> {
    try await Transaction.perform(on: .controller(self)) { context in
      let change = try await self.changeStack(animated: animated, reason: .popped, context: context) { stack, held in
        guard stack.count >= 2 else {
          throw stack.isEmpty ? ContainmentError.emptyStack : ContainmentError.cannotPopRoot
        }
        return .popLast(1)
      }
      return change.removed[0]
    }
  }

  /// Pops every controller above `controller` and returns them, bottom first
  /// (N4): only the old top and `controller` get appearance hooks; each
  /// popped controller gets `willMove(nil)` and `didMove(nil)` (policy).
  ///
  /// Popping to the current top changes nothing and returns `[]`.
  ///
  /// One transaction on this controller's queue. Throws
  /// ``ContainmentError/notOnStack(_:)`` if `controller` is not on this
  /// stack, ``ContainmentError/tornDown(_:)``; then nothing changed.
  @discardableResult
  public nonisolated func popTo(_ controller: any ViewController, animated: Bool) async throws
    -> TransactionHandle<[any ViewController]>
  {
    try await Transaction.perform(on: .controller(self)) { context in
      try await self.changeStack(animated: animated, reason: .popped, context: context, involving: [controller]) {
        stack, held in
        guard controller.node.hasParent(held, self), let index = stack.lastIndex(where: { $0 === controller }) else {
          throw ContainmentError.notOnStack(controller.node.id)
        }
        return .popLast(stack.count - 1 - index)
      }.removed
    }
  }

  /// Pops to the root (N4): on `[A, B, C, D]` only D and A get appearance
  /// hooks (`D.viewWillDisappear → A.viewWillAppear → A.viewIsAppearing →
  /// D.viewDidDisappear → A.viewDidAppear`); B, C and D each get
  /// `willMove(nil)` first and `didMove(nil)` last.
  ///
  /// Returns `[B, C, D]`.
  ///
  /// One transaction on this controller's queue. Throws
  /// ``ContainmentError/emptyStack`` on an empty stack,
  /// ``ContainmentError/tornDown(_:)``; then nothing changed.
  @discardableResult
  public nonisolated func popToRoot(animated: Bool) async throws -> TransactionHandle<[any ViewController]> {
    try await Transaction.perform(on: .controller(self)) { context in
      try await self.changeStack(animated: animated, reason: .popped, context: context) { stack, held in
        guard !stack.isEmpty else { throw ContainmentError.emptyStack }
        return .popLast(stack.count - 1)
      }.removed
    }
  }

  /// Replaces the whole stack (N5).
  ///
  /// Only the old and the new top get appearance hooks; controllers leaving the
  /// stack get `willMove(nil)` / `didMove(nil)`; controllers joining it get
  /// `willMove(self)` / `didMove(self)`; controllers on both keep their place
  /// in the tree and get nothing (the order may change). An empty array empties
  /// the stack. Setting `[Y]` on an empty, on-screen stack is the initial root
  /// (N1): `Y.willMove(self) → Y.viewDidLoad → Y.viewWillAppear →
  /// Y.viewIsAppearing → Y.viewDidAppear → Y.didMove(self)`.
  ///
  /// One transaction on this controller's queue; see ``push(_:animated:)``
  /// for the errors of a joining controller, plus
  /// ``ContainmentError/sameController(_:)`` if one is listed twice. Nothing
  /// changes when it throws.
  @discardableResult
  public nonisolated func setViewControllers(_ controllers: [any ViewController], animated: Bool) async throws
    -> TransactionHandle<TransitionOutcome>
  {
    try await Transaction.perform(on: .controller(self), adopting: controllers) { context in
      try await self.changeStack(animated: animated, reason: .replaced, context: context, involving: controllers) {
        _, held in
        .replace(controllers)
      }
      .outcome
    }
  }

  /// What a stack request does to the stack, decided under the link lock.
  enum StackEdit {
    case push(any ViewController)
    /// Pops this many entries off the top.
    case popLast(Int)
    case replace([any ViewController])
  }

  /// The result of one stack change.
  struct StackChange: Sendable {
    /// Controllers that left the stack, in their old stack order.
    let removed: [any ViewController]
    let outcome: TransitionOutcome
  }

  /// Inside a transaction on this queue: replaces the stack with what
  /// `plan` returns for the current one (`plan` runs under the link lock, with
  /// the controllers it reads or pushes named in `involving`, and
  /// may throw a misuse error; then nothing changed).
  ///
  /// The order is the type's: a children change showing the top
  /// (``ViewController/changeChildren(_:)``), announced as a transition from
  /// the old top to the new one.
  nonisolated(nonsending) func changeStack(
    animated: Bool,
    reason: RemovalReason,
    context: TransactionContext,
    involving: [any ViewController] = [],
    _ plan: ([any ViewController], LinkSection) throws -> StackEdit
  ) async throws -> StackChange {
    let result = try await runChildrenChange(
      reason: reason,
      context: context,
      involving: involving,
      joinerWithParent: { joiner, parent in
        parent is NavigationController
          ? .alreadyOnStack(joiner.node.id) : .alreadyChild(child: joiner.node.id, parent: parent.node.id)
      },
      // The delegate is read when the call is due; without one, nothing
      // goes through the gateway.
      willShow: {
        guard let delegate = self.currentDelegate() else { return nil }
        return { top, animated in await delegate.navigationController(self, willShow: top, animated: animated) }
      },
      didShow: {
        guard let delegate = self.currentDelegate() else { return nil }
        return { top, animated in await delegate.navigationController(self, didShow: top, animated: animated) }
      }
    ) { stack, held in
      let edit = try plan(stack, held)
      let top: (any ViewController)?
      var change = ChildrenChange(
        children: [], shown: [], placement: contentPlacement(held), animated: animated, duration: transitionDuration)
      switch edit {
      case .push(let controller):
        top = controller
        change.edit = .append(controller)
      case .popLast(let count):
        top = stack[stack.count - 1 - count]
        change.edit = .removeLast(count)
      case .replace(let controllers):
        top = controllers.last
        change.children = controllers
      }
      change.shown = top.map { [ShownChild($0, placement: contentPlacement(held))] } ?? []
      if stack.last !== top { change.transition = .init(from: stack.last, to: top, always: true) }
      return change
    }
    return StackChange(removed: result.removed, outcome: result.outcome)
  }

  /// Inside a transaction on this queue, when this view has loaded: loads
  /// the top's view and installs it, appearing if this view is on screen.
  ///
  /// Does nothing if it is installed already.
  nonisolated func installTop(context: TransactionContext) async {
    let top = TreeLock.withLock(node) { (held: LinkSection) -> (any ViewController)? in
      guard node[held].view != nil, !node[held].supervision.isTornDown, let top = node[held].children.last,
        !isInstalled(held, top)
      else { return nil }
      return top
    }
    guard let top else { return }
    _ = await top.loadViewIfNeeded(in: context)
    var pass = AppearancePass(animated: false)
    TreeLock.withLock(node) { held in
      guard let view = node[held].view, node[held].children.last === top, !isInstalled(held, top) else { return }
      install(held, top, contentPlacement(held))
      if view.window(held) != nil { pass.beginForwarding(held, from: top, isAppearing: true) }
    }
    await pass.deliverAll(in: context)
  }
}

extension NavigationController: FaultIsolating {
  /// Lets a faulted or torn-down controller go (V2, V3): it leaves the stack, not animated;
  /// if it was the top, the controller below it is shown (N3's order).
  nonisolated func isolate(_ child: any ViewController, reason: RemovalReason, context: TransactionContext)
    async throws
  {
    _ = try await changeStack(animated: false, reason: reason, context: context) { stack, held in
      .replace(stack.filter { $0 !== child })
    }
  }
}
