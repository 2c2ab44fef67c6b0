import ContainmentLocking
extension ViewController {
  /// Changes this container's children as one transaction, in the order of
  /// ``ChildrenChange`` — the engine the built-in containers are written on,
  /// for a custom container that wants their exact guarantees (R6).
  ///
  /// Runs on this container's FIFO queue like every verb (inline when called
  /// inside ``withTransaction(_:)`` on this container); see
  /// ``addChild(_:)`` for waiting, nesting and cancellation while queued.
  /// Once it runs, cancellation cuts the animation short and the change
  /// finishes (`.interrupted`, policy T4).
  ///
  /// Throws, before anything changes: ``ContainmentError/sameController(_:)``
  /// if a controller is listed twice, ``ContainmentError/notAChild(child:parent:)``
  /// if a shown controller is not in `children`, the errors of
  /// ``addChild(_:)`` for a joining controller (``ContainmentError/alreadyChild(child:parent:)``
  /// if it has another parent: never a move; ``ContainmentError/treeBusy(_:)``
  /// inside a scope), or ``ContainmentError/tornDown(_:)``.
  @discardableResult
  public nonisolated func changeChildren(_ change: ChildrenChange) async throws -> TransactionHandle<
    ChildrenChangeResult
  > {
    try await Transaction.perform(on: .controller(self), adopting: change.children) { context in
      try await self.runChildrenChange(
        reason: change.reason, context: context, involving: change.children + change.shown.map(\.controller)
      ) {
        _, _ in change
      }
    }
  }

  /// The children-change engine, inside a transaction on this container's
  /// queue; `reason` is what its `childRemoved` events say (V4).
  ///
  /// `plan` runs under the link lock with the current children and may throw a
  /// misuse error (then nothing changed); `joinerWithParent` names the error
  /// for a joining controller that has another parent. `involving` names every
  /// controller that is not a child yet whose links `plan` reads or the change
  /// makes (those it adds or shows): they are held in the same section.
  /// `commit` runs under the same lock once the change is validated and linked
  /// (a policy records its own state there). `willShow`/`didShow` are
  /// asked, right after the change's `transitionBegan`/`transitionEnded`
  /// events (if it announces one), for the call to make then (a delegate's,
  /// through the gateway); nil calls nothing.
  @discardableResult
  nonisolated(nonsending) func runChildrenChange(
    reason: RemovalReason,
    context: TransactionContext,
    involving: [any ViewController] = [],
    joinerWithParent: (_ joiner: any ViewController, _ parent: any ViewController) -> ContainmentError = {
      .alreadyChild(child: $0.node.id, parent: $1.node.id)
    },
    willShow: () -> ShowCall? = { nil },
    didShow: () -> ShowCall? = { nil },
    commit: (ChildrenChange, LinkSection) -> Void = { _, _ in },
    plan: ([any ViewController], LinkSection) throws -> ChildrenChange
  ) async throws -> ChildrenChangeResult {
    // Read once: each read of the `node` requirement is a call and a retain.
    let node = self.node
    // The change's parts are taken out once: the struct is copied nowhere
    // after this section (each copy retains all it refers to).
    let (decided, decision, oldChildren, presenters) = try withLinks(involving: involving) {
      (held: LinkSection) -> (DecidedChange, ChildrenDecision, [any ViewController], [any ViewController]) in
      if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
      let change = try plan(node[held].children, held)
      // Kept only for a general change (an edit at the end never hides more
      // than one view): it orders the views that leave when several do.
      let oldChildren = change.edit == nil ? node[held].children : []
      let decision =
        change.edit.map { ChildrenDecision(held, container: self, old: node[held].children, edit: $0) }
        ?? ChildrenDecision(held, container: self, old: node[held].children, new: change.children)
      try validateChildren(held, change, decision, joinerWithParent: joinerWithParent)
      switch change.edit {
      case .append(let controller): node[held].children.append(controller)
      case .removeLast(let count): node[held].children.removeLast(count)
      case nil: node[held].children = change.children
      }
      link(held, decision)
      // Still linked to their parent until `detachFromParent` below: kept
      // reachable from it, for joins meanwhile.
      for controller in decision.removed {
        node[held].containerAttributes.value.leavingChildren.append(controller.node)
      }
      commit(change, held)
      let presenters =
        decision.removed.isEmpty ? [] : decision.removed.flatMap { $0.presenters(held, includingSelf: true) }
      return (DecidedChange(change), decision, oldChildren, presenters)
    }
    let shownChildren = decided.shown
    let animated = decided.animated
    await announce(decision, in: context)
    // What the leaving children's trees present leaves with them (§10).
    for presenter in presenters { await presenter.runDismissal(animated: false, reason: reason, context: context) }

    if isViewLoaded {
      for shown in shownChildren { _ = await shown.controller.loadViewIfNeeded(in: context) }
    }

    var pass = AppearancePass(animated: animated)
    let (hidden, onScreen, viewsChange, environment) = TreeLock.withLock(node) {
      (held: LinkSection) -> ([any ViewController], Bool, Bool, ContainmentEnvironment?) in
      let environment = animated ? node.resolvedEnvironment(held) : nil
      guard let view = node[held].view else { return ([], false, false, environment) }
      let onScreen = view.window(held) != nil
      // Installed children are the owners of this view's subviews: a stack
      // of any depth installs one of them, so this does not grow with it.
      // A change usually shows one or two controllers: a search beats a set.
      let shownIdentities =
        shownChildren.count > 4 ? Set(shownChildren.lazy.map { ObjectIdentifier($0.controller) }) : nil
      func isShown(_ owner: any ViewController) -> Bool {
        shownIdentities?.contains(ObjectIdentifier(owner)) ?? shownChildren.contains { $0.controller === owner }
      }
      var hidden = view[held].subviews.compactMap { subview -> (any ViewController)? in
        guard let owner = subview[held].owner, owner.node.hasParent(held, self), !isShown(owner) else { return nil }
        return owner
      }
      if hidden.count > 1 {
        // Several leave: they disappear in `children` order (A1), not in
        // the order their views are stacked.
        let order = oldChildren + decision.added
        let position = { (controller: any ViewController) in order.firstIndex { $0 === controller } ?? order.count }
        hidden.sort { position($0) < position($1) }
      }
      if onScreen {
        for controller in hidden {
          pass.beginForwarding(held, from: controller, isAppearing: false)
        }
      }
      var viewsChange = !hidden.isEmpty
      for shown in shownChildren {
        let controller = shown.controller
        // Each child's view is read once (each read of `node` retains it).
        guard let childView = controller.node[held].view else { continue }
        if Self.isInstalled(held, childView, in: view) {
          Self.pin(held, childView, shown.placement, in: view)
        } else {
          // A child that was already there is revealed below the views that leave.
          let revealed = decision.wasChildBefore(controller)
          Self.install(
            held, childView, shown.placement, in: view, below: revealed ? hidden.first?.node[held].view : nil)
          if onScreen { pass.beginForwarding(held, from: controller, isAppearing: true) }
          viewsChange = true
        }
      }
      return (hidden, onScreen, viewsChange, environment)
    }

    let announcement = decided.transition.flatMap { $0.always || viewsChange ? $0 : nil }
    if let announcement {
      node.emit(
        .transitionBegan(from: announcement.from?.node.id, to: announcement.to?.node.id, options: []),
        transaction: context.id)
      if let to = announcement.to, let willShow = willShow() {
        await Gateway.call(
          UserCall("navigationController(_:willShow:animated:)", of: self), in: context, ifAbandoned: {}
        ) {
          await willShow(to, animated)
        }
      }
    }
    await pass.deliverWill(in: context)
    await pass.deliverIsAppearing(in: context)
    var interrupted = false
    if viewsChange, onScreen, let environment {
      interrupted = await Self.animate(for: decided.duration, on: environment, animations: nil)
    }
    TreeLock.withLock(node) { held in
      if let view = node[held].view {
        for controller in hidden {
          guard let childView = controller.node[held].view, Self.isInstalled(held, childView, in: view) else {
            continue
          }
          Self.uninstall(held, childView, from: view)
        }
      }
      for controller in decision.removed { controller.node.detachFromParent(held) }
      if !decision.removed.isEmpty {
        node[held].containerAttributes.value.leavingChildren.removeAll { leaving in
          decision.removed.contains { $0.node === leaving }
        }
      }
    }
    for controller in decision.removed {
      node.emit(.childRemoved(controller.node.id, reason: reason), transaction: context.id)
    }
    await pass.deliverDid(in: context)
    for controller in decision.removed { await controller.performDidMove(toParent: nil, in: context) }
    for controller in decision.added { await controller.performDidMove(toParent: self, in: context) }

    let outcome: TransitionOutcome = interrupted || Task.isCancelled ? .interrupted : .completed
    if let announcement {
      node.emit(
        .transitionEnded(from: announcement.from?.node.id, to: announcement.to?.node.id, outcome: outcome),
        transaction: context.id)
      if let to = announcement.to, let didShow = didShow() {
        await Gateway.call(
          UserCall("navigationController(_:didShow:animated:)", of: self), in: context, ifAbandoned: {}
        ) { await didShow(to, animated) }
      }
    }
    return ChildrenChangeResult(removed: decision.removed, added: decision.added, outcome: outcome)
  }

  /// Under the link lock: §8 for a change of children.
  ///
  /// Controllers already children may stay; every other one must be free to
  /// join; shown ones must be children afterwards.
  nonisolated func validateChildren(
    _ held: LinkSection,
    _ change: ChildrenChange,
    _ decision: ChildrenDecision,
    joinerWithParent: (any ViewController, any ViewController) -> ContainmentError
  ) throws {
    if !decision.newIsDistinct {
      if case .append(let controller) = change.edit { throw ContainmentError.sameController(controller.node.id) }
      var seen: Set<ObjectIdentifier> = []
      for controller in change.children where !seen.insert(ObjectIdentifier(controller)).inserted {
        throw ContainmentError.sameController(controller.node.id)
      }
    }
    for controller in decision.added {
      try validateAttach(held, controller, reservation: nil, ignoringParent: true)
      if let parent = controller.node[held].parent { throw joinerWithParent(controller, parent) }
    }
    for shown in change.shown where !decision.isChildAfter(held, shown.controller, of: self) {
      throw ContainmentError.notAChild(child: shown.controller.node.id, parent: node.id)
    }
  }

  /// Under the link lock: links the controllers `decision` adds (marking them
  /// as moving to this parent) and marks those it removes as moving from it.
  ///
  /// The caller sets `self[held].children` to the new list; the removed ones are
  /// unlinked later with `detachFromParent(held)`, after their hooks.
  nonisolated func link(_ held: LinkSection, _ decision: ChildrenDecision) {
    for controller in decision.added {
      let node = controller.node
      node.attach(held, to: self)
      node[held].appearance.isMovingToParent = true
    }
    for controller in decision.removed { controller.node[held].appearance.isMovingFromParent = true }
  }

  /// Announces a decided change of children, in order: `childAdded` events,
  /// then `willMove(toParent: nil)` to each leaving child, then
  /// `willMove(toParent: self)` to each joining one.
  @inline(__always)
  nonisolated(nonsending) func announce(_ decision: ChildrenDecision, in context: TransactionContext) async {
    for controller in decision.added { node.emit(.childAdded(controller.node.id), transaction: context.id) }
    for controller in decision.removed { await controller.deliver(.willMove(toParent: nil), in: context) }
    for controller in decision.added { await controller.deliver(.willMove(toParent: self), in: context) }
  }
}

/// A call a change of children makes when it begins or ends showing a
/// controller (a navigation delegate's `willShow`/`didShow`).
typealias ShowCall = nonisolated(nonsending) @Sendable (any ViewController, Bool) async -> Void

extension ViewController {
  /// Runs `body` with the link domains of this controller and of `involving` held.
  @inline(__always)
  nonisolated func withLinks<Result>(involving: [any ViewController], _ body: (LinkSection) throws -> Result) rethrows
    -> Result
  {
    switch involving.count {
    case 0: try TreeLock.withLock(node, body)
    case 1: try TreeLock.withLock(node, involving[0].node, body)
    default: try TreeLock.withLock([node] + involving.map(\.node), body)
    }
  }
}

/// The parts of a decided ``ChildrenChange`` that its transaction uses once
/// the change is linked.
private struct DecidedChange {
  let shown: [ShownChild]
  let transition: ChildrenChange.Announcement?
  let animated: Bool
  let duration: Duration

  init(_ change: borrowing ChildrenChange) {
    shown = change.shown
    transition = change.transition
    animated = change.animated
    duration = change.duration
  }
}
