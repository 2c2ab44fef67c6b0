import ContainmentLocking
extension ViewController {
  // MARK: Reading (synchronous snapshots)

  /// The controller this one presents, if any (§10).
  public nonisolated var presentedViewController: (any ViewController)? {
    TreeLock.withLock(node) { held in node[held].presented }
  }

  /// The controller presenting this one, if it is presented (§10).
  public nonisolated var presentingViewController: (any ViewController)? {
    TreeLock.withLock(node) { held in node[held].presenting }
  }

  /// How this controller is presented, while it is; nil otherwise.
  public nonisolated var modalPresentationStyle: PresentationStyle? {
    TreeLock.withLock(node) { held in node[held].presentationStyle }
  }

  /// True during this controller's appearance hooks of its presentation (P3).
  public nonisolated var isBeingPresented: Bool { TreeLock.withLock(node) { held in node[held].isBeingPresented } }

  /// True during this controller's disappearance hooks of its dismissal (P3).
  public nonisolated var isBeingDismissed: Bool { TreeLock.withLock(node) { held in node[held].isBeingDismissed } }

  // MARK: Requests

  /// Presents `controller` over this one (§10).
  ///
  /// Its view is added to the window above everything shown, framed by `style`.
  ///
  /// Order (P1, P2): `controller.viewDidLoad` (first time) → for
  /// ``PresentationStyle/fullScreen`` the will-hooks of the layer this
  /// controller is shown in (this controller's window content, in A1 order)
  /// → `controller.viewWillAppear` → `controller.viewIsAppearing` → (the
  /// animation, ``presentationDuration``, on the tree's clock if `animated`)
  /// → `controller.viewDidAppear` → for `.fullScreen`, that layer leaves the
  /// window and gets its `viewDidDisappear`s. Other styles leave the
  /// presenter on screen, and it hears nothing. `controller`'s installed
  /// children follow it (A1). ``isBeingPresented`` is true during its
  /// appearance hooks. A `presented` event on this controller's stream comes
  /// first.
  ///
  /// One transaction on this controller's queue (P5): FIFO with its other
  /// requests, cancellable while it waits (R3); a request from a hook inside
  /// it is queued behind it (R2); hierarchical exclusion treats the presented
  /// tree as below this controller, so a push on a stack underneath never
  /// interleaves with it. Cancelled once running, the animation is cut short
  /// and the presentation completes (T4).
  ///
  /// Throws, before anything changes: ``ContainmentError/cannotPresentSelf(_:)``,
  /// ``ContainmentError/hasParent(_:)`` if `controller` is a child,
  /// ``ContainmentError/alreadyPresented(_:)`` if it is presented or a
  /// window's root, ``ContainmentError/presenterNotInWindow(_:)``,
  /// ``ContainmentError/alreadyPresenting(presenter:presented:)``,
  /// ``ContainmentError/childInFlight(_:)`` or ``ContainmentError/tornDown(_:)``;
  /// called from a transaction's body (a scope), ``ContainmentError/treeBusy(_:)``
  /// if another transaction runs or waits in `controller`'s tree.
  ///
  /// The presentation lasts while this controller keeps its place: when it
  /// (or an ancestor) is removed from its parent, when the presented
  /// controller it is inside is dismissed, or when its window's root is
  /// replaced, the presentation ends in that same transaction as a dismissal
  /// that is not animated, and the `dismissed` event gives that removal's
  /// reason (popped, replaced, moved, faulted...).
  @discardableResult
  public nonisolated func present(
    _ controller: any ViewController, style: PresentationStyle = .pageSheet, animated: Bool
  )
    async throws -> TransactionHandle<TransitionOutcome>
  {
    try await Transaction.perform(on: .controller(self), adopting: [controller]) { context in
      try await self.runPresentation(of: controller, style: style, animated: animated, context: context)
    }
  }

  /// Dismisses with UIKit's routing (P4): on a controller that presents
  /// something, everything presented above it; on a controller that presents
  /// nothing, itself, from its presenter.
  ///
  /// Order (P1, P2, P4): the top of the chain's `viewWillDisappear` → if the
  /// first controller of the chain was presented `.fullScreen`, the layer it
  /// had taken off screen comes back: its `viewWillAppear`s and
  /// `viewIsAppearing`s (A1 order) → (animation) → the top's
  /// `viewDidDisappear` → the layer's `viewDidAppear`s. Only the top and the
  /// returning layer get hooks (policy): a controller between them leaves the
  /// window without hooks, `disappeared`. ``isBeingDismissed`` is true during
  /// the top's disappearance hooks; `presentedViewController` and
  /// `presentingViewController` read nil once the hooks are done, and a
  /// `dismissed` event on each presenter's stream follows.
  ///
  /// One transaction on the presenter's queue, with the waiting, nesting and
  /// cancellation of ``present(_:style:animated:)``. With nothing to dismiss
  /// it changes nothing and emits `callIgnored(.nothingToDismiss)` (§8).
  @discardableResult
  public nonisolated func dismiss(animated: Bool) async throws -> TransactionHandle<TransitionOutcome> {
    let presenter = TreeLock.withLock(node) { (held: LinkSection) -> (any ViewController)? in
      node[held].presented != nil ? self : node[held].presenting
    }
    guard let presenter else {
      node.emit(.callIgnored(.nothingToDismiss), transaction: TransactionContext.current?.innermostRunning?.id)
      return .completed(id: .next(), .success(.completed))
    }
    return try await Transaction.perform(on: .controller(presenter)) { context in
      await presenter.runDismissal(animated: animated, context: context)
    }
  }

  /// How long an animated presentation or dismissal takes.
  public nonisolated var presentationDuration: Duration { .milliseconds(300) }

  // MARK: Inside transactions

  nonisolated func runPresentation(
    of controller: any ViewController, style: PresentationStyle, animated: Bool, context: TransactionContext
  ) async throws -> TransitionOutcome {
    let window = try TreeLock.withLock(node, controller.node) { (held: LinkSection) -> Window in
      if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
      let presented = controller.node
      if presented[held].supervision.isTornDown { throw ContainmentError.tornDown(presented.id) }
      if controller === self { throw ContainmentError.cannotPresentSelf(node.id) }
      if presented[held].parent != nil { throw ContainmentError.hasParent(presented.id) }
      // With no parent and no presenter, it is above the presenter only as
      // the root of its tree: the slot that stands for that tree (O(1)).
      if presented[held].presenting != nil || presented[held].window != nil
        || node.position(held).treeSlot === presented.hierarchy
      {
        throw ContainmentError.alreadyPresented(presented.id)
      }
      if presented[held].eventRouting.departure != nil || presented[held].reservation != nil {
        throw ContainmentError.childInFlight(presented.id)
      }
      if let current = node[held].presented {
        throw ContainmentError.alreadyPresenting(presenter: node.id, presented: current.node.id)
      }
      guard let window = node[held].view?.window(held) else { throw ContainmentError.presenterNotInWindow(node.id) }
      node[held].presented = controller
      presented.attachPresented(held, to: self)
      presented[held].presentationStyle = style
      presented[held].isBeingPresented = true
      return window
    }
    node.emit(.presented(controller.node.id, style: style), transaction: context.id)
    let view = await controller.loadViewIfNeeded(in: context)

    var hiding = AppearancePass(animated: animated)
    var appearing = AppearancePass(animated: animated)
    let (layer, environment) = TreeLock.withLock(node, view) { (held: LinkSection) -> (View?, ContainmentEnvironment) in
      let layer = style.hidesPresenter ? node[held].view?.layer(held, in: window) : nil
      if let layer { hiding.beginForwarding(held, in: layer, isAppearing: false) }
      view[held].frame = style.frame(in: window.rootView[held].frame)
      window.rootView.link(held, view)
      appearing.beginForwarding(held, from: controller, isAppearing: true)
      return (layer, node.resolvedEnvironment(held))
    }
    await hiding.deliverWill(in: context)
    await appearing.deliverWill(in: context)
    await appearing.deliverIsAppearing(in: context)
    let interrupted = animated ? await Self.animate(for: presentationDuration, on: environment, animations: nil) : false
    TreeLock.withLock(node) { held in
      if let layer, let index = window.rootView[held].subviews.firstIndex(where: { $0 === layer }) {
        controller.node[held].coveredLayer = (layer, index)
        layer.unlink(held)
      }
    }
    // The presented controller's did-hooks come before the presenter's (P1).
    await appearing.deliverDid(in: context)
    await hiding.deliverDid(in: context)
    TreeLock.withLock(controller.node) { held in controller.node[held].isBeingPresented = false }
    return interrupted || Task.isCancelled ? .interrupted : .completed
  }

  /// Dismisses everything this controller presents (P4).
  ///
  /// `reason` is what the `dismissed` events say (V4).
  ///
  /// What the chain's controllers present from inside their own trees (a
  /// presented navigation stack's child presenting a sheet) is dismissed
  /// first, not animated, top of the chain first: no presentation outlives
  /// its presenter's place in the window.
  @discardableResult
  nonisolated func runDismissal(animated: Bool, reason: RemovalReason = .dismissed, context: TransactionContext)
    async -> TransitionOutcome
  {
    // The chain stays as it is meanwhile: requests from the nested
    // dismissals' hooks are queued behind this transaction (R2).
    let (chain, nested) = TreeLock.withLock(node) {
      (held: LinkSection) -> ([any ViewController], [any ViewController]) in
      var chain: [any ViewController] = []
      var next = node[held].presented
      while let current = next {
        chain.append(current)
        next = current.node[held].presented
      }
      return (chain, Self.presentersInside(held, leaving: chain))
    }
    guard let first = chain.first, let top = chain.last else { return .completed }
    for presenter in nested { await presenter.runDismissal(animated: false, reason: reason, context: context) }

    var leaving = AppearancePass(animated: animated)
    var returning = AppearancePass(animated: animated)
    let plan = TreeLock.withLock(node) { (held: LinkSection) -> DismissalPlan in
      let window = top.node[held].view?.window(held)
      top.node[held].isBeingDismissed = true
      if let view = top.node[held].view, view.window(held) != nil {
        leaving.beginForwarding(held, from: top, isAppearing: false)
      }
      var layer: View?
      // The top may be off screen itself (a `.fullScreen` presentation from
      // its child covers it): the layer returns to the window its tree is in.
      if let covered = first.node[held].coveredLayer,
        let window = window ?? covered.view[held].owner?.node.hostingWindow(held)
      {
        window.rootView.link(held, covered.view, at: min(covered.index, window.rootView[held].subviews.count))
        returning.beginForwarding(held, in: covered.view, isAppearing: true)
        layer = covered.view
      }
      return DismissalPlan(chain: chain, window: window, layer: layer, environment: node.resolvedEnvironment(held))
    }
    await leaving.deliverWill(in: context)
    await returning.deliverWill(in: context)
    await returning.deliverIsAppearing(in: context)
    var interrupted = false
    if animated, plan.window != nil {
      interrupted = await Self.animate(for: presentationDuration, on: plan.environment, animations: nil)
    }
    TreeLock.withLock(node) { held in
      for presented in plan.chain { presented.node[held].view?.unlink(held) }
      // Between the top and the presenter: off screen without hooks (policy, P4).
      for presented in plan.chain.dropLast() {
        for controller in AppearancePass.forwardingTargets(held, from: presented) {
          if controller.node[held].appearance.machine.takenOffScreen() {
            controller.node.events.updateReported { $0.appearance = .disappeared }
          }
        }
      }
    }
    await leaving.deliverDid(in: context)
    await returning.deliverDid(in: context)
    // Top first: each presenter hears `dismissed` once what it presented left.
    let ended = TreeLock.withLock(node) {
      (held: LinkSection) -> [(presented: ControllerID, presenter: ControllerNode, style: PresentationStyle)] in
      plan.chain[plan.chain.count - 1].node[held].isBeingDismissed = false
      return plan.chain.reversed().compactMap { presented in
        presented.node.endPresentation(held).map { (presented.node.id, $0.presenter, $0.style) }
      }
    }
    for entry in ended {
      entry.presenter.emit(.dismissed(entry.presented, style: entry.style, reason: reason), transaction: context.id)
    }
    return interrupted || Task.isCancelled ? .interrupted : .completed
  }
}

extension ViewController {
  /// Under the link lock: the controllers in this controller's tree
  /// (containment only: itself first if `includingSelf`, then its
  /// descendants in preorder) that present something.
  nonisolated func presenters(_ held: LinkSection, includingSelf: Bool) -> [any ViewController] {
    var found: [any ViewController] = includingSelf && node[held].presented != nil ? [self] : []
    var stack = Array(node[held].children.reversed())
    while let next = stack.popLast() {
      if next.node[held].presented != nil { found.append(next) }
      stack += next.node[held].children.reversed()
    }
    return found
  }

  /// Under the link lock: the presenters inside the trees of presented
  /// controllers that are all leaving (`chain`), top of the chain first —
  /// each dismisses before them.
  ///
  /// A chain member's layer that one of those presentations covers leaves with
  /// the chain: it is forgotten, so that their dismissal does not bring it
  /// back.
  nonisolated static func presentersInside(_ held: LinkSection, leaving chain: [any ViewController])
    -> [any ViewController]
  {
    let presenters = chain.reversed().flatMap { $0.presenters(held, includingSelf: false) }
    for presenter in presenters {
      guard let presented = presenter.node[held].presented,
        let owner = presented.node[held].coveredLayer?.view[held].owner
      else {
        continue
      }
      if chain.contains(where: { $0 === owner }) { presented.node[held].coveredLayer = nil }
    }
    return presenters
  }
}

/// What a dismissal decided under the link lock.
private struct DismissalPlan {
  /// The presented controllers leaving, bottom first.
  let chain: [any ViewController]
  let window: Window?
  /// The layer coming back on screen, if the chain's first controller had hidden it.
  let layer: View?
  let environment: ContainmentEnvironment
}

extension View {
  /// Under the link lock: the window layer this view is shown in — its
  /// ancestor (or itself) directly under the window's root view.
  func layer(_ held: LinkSection, in window: Window) -> View? {
    var view = self
    while let superview = view[held].superview {
      if superview === window.rootView { return view }
      view = superview
    }
    return nil
  }
}
