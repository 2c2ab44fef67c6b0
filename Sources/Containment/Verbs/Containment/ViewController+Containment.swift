import ContainmentLocking
import Synchronization

private let reservations = Atomic<UInt64>(0)

extension ViewController {
  /// The parent container, or nil.
  ///
  /// Synchronous; never keeps the parent alive.
  public nonisolated var parent: (any ViewController)? { node.parent }

  /// The children, in the order they were added.
  ///
  /// Synchronous snapshot.
  public nonisolated var children: [any ViewController] { node.children }

  /// Adds `child` as this container's last child and calls
  /// `child.willMove(toParent: self)`; never `didMove` (C1).
  ///
  /// Does not touch views: install the child's view, then call
  /// ``didMove(toParent:)``.
  ///
  /// If `child` has another parent it is moved (C6): first removed from
  /// the old parent in a transaction of the old parent, with its callbacks
  /// (`willMove(nil)`, disappearance if on screen, `didMove(nil)`), then added
  /// here. Between the two steps the child is reserved, so no other request
  /// can take it. No task holds one queue while waiting for another, so
  /// opposite moves cannot deadlock.
  ///
  /// Runs as one transaction on this container's queue (R1). From outside
  /// a transaction it waits its turn (cancellable while waiting: it then throws
  /// `CancellationError` and changes nothing, R3; once a move's removal
  /// has run, the move completes regardless) and returns a completed handle.
  /// From inside a hook it is queued and returns a pending handle (R2).
  ///
  /// Throws ``ContainmentError/cannotAddSelfAsChild(_:)``,
  /// ``ContainmentError/wouldCreateCycle(child:parent:)``,
  /// ``ContainmentError/alreadyChild(child:parent:)``,
  /// ``ContainmentError/childInFlight(_:)`` (also while `child` is still being
  /// removed from a parent: until its `didMove(toParent: nil)`),
  /// ``ContainmentError/alreadyInWindow(_:)``
  /// or ``ContainmentError/tornDown(_:)``; called from a transaction's body
  /// (a ``withTransaction(_:)`` scope, which cannot wait),
  /// ``ContainmentError/treeBusy(_:)`` if another transaction runs or waits
  /// in `child`'s tree. Then nothing changed.
  @discardableResult
  public nonisolated func addChild(_ child: any ViewController) async throws -> TransactionHandle<Void> {
    let oldParent = TreeLock.withLock(child.node) { held in child.node[held].parent }
    guard let oldParent, oldParent !== self else {
      return try await Transaction.perform(on: .controller(self), adopting: [child]) { context in
        try await self.attachChild(child, reservation: nil, context: context)
      }
    }
    return try await moveChild(child, from: oldParent)
  }

  private nonisolated func moveChild(_ child: any ViewController, from oldParent: any ViewController) async throws
    -> TransactionHandle<Void>
  {
    let token = reservations.wrappingAdd(1, ordering: .relaxed).newValue
    try TreeLock.withLock(node, child.node) { held in
      try self.validateAttach(held, child, reservation: nil, ignoringParent: true)
      child.node[held].reservation = token
    }
    let release: @Sendable () -> Void = {
      TreeLock.withLock(child.node) { held in
        if child.node[held].reservation == token { child.node[held].reservation = nil }
      }
    }
    let chain = TransactionContext.current?.runningChain() ?? []
    let attach: Transaction.Body<Void> = { context in
      do {
        try await self.attachChild(child, reservation: token, context: context)
      } catch {
        release()
        throw error
      }
    }
    if chain.isEmpty {
      do {
        try await Transaction.perform(on: .controller(oldParent)) { context in
          try await oldParent.detachChild(child, reservation: token, context: context)
        }
      } catch {
        release()
        throw error
      }
      let handle = TransactionHandle<Void>(id: .next(), queuedBehind: [])
      await Transaction.dispatch(attach, on: .controller(self), adopting: [child], handle: handle, chain: [])
      if case .failure(let error) = await handle.waitUncancellable() { throw error }
      return handle
    }
    let final = TransactionHandle<Void>(id: .next(), queuedBehind: chain.map(\.id))
    let removal = TransactionHandle<Void>(id: .next(), queuedBehind: chain.map(\.id))
    await Transaction.dispatch(
      { context in
        do {
          try await oldParent.detachChild(child, reservation: token, context: context)
        } catch {
          release()
          final.complete(.failure(error))
          throw error
        }
        let chain = TransactionContext.current?.runningChain() ?? []
        await Transaction.dispatch(attach, on: .controller(self), adopting: [child], handle: final, chain: chain)
      }, on: .controller(oldParent), handle: removal, chain: chain)
    return final
  }

  /// Under the link lock: the checks of `addChild`, in §8 order.
  nonisolated func validateAttach(
    _ held: LinkSection, _ child: any ViewController, reservation: UInt64?, ignoringParent: Bool
  ) throws {
    // Each node is read once: each read of the `node` requirement is a call
    // and a retain.
    let node = node
    let childNode = child.node
    if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
    if childNode[held].supervision.isTornDown { throw ContainmentError.tornDown(childNode.id) }
    if child === self { throw ContainmentError.cannotAddSelfAsChild(node.id) }
    // A controller without children is nobody's ancestor: no walk (adding a
    // leaf, the common case, stays O(1) at any depth).
    if !childNode[held].children.isEmpty, childNode.isAncestorOrSelf(held, of: node) {
      throw ContainmentError.wouldCreateCycle(child: childNode.id, parent: node.id)
    }
    if childNode.hasParent(held, self) { throw ContainmentError.alreadyChild(child: childNode.id, parent: node.id) }
    if !ignoringParent, childNode[held].parent != nil { throw ContainmentError.childInFlight(childNode.id) }
    if let held = childNode[held].reservation, held != reservation {
      throw ContainmentError.childInFlight(childNode.id)
    }
    // Still being removed from its old parent (unlinked, `didMove(nil)` not yet delivered).
    if childNode[held].eventRouting.departure != nil { throw ContainmentError.childInFlight(childNode.id) }
    if childNode[held].window != nil { throw ContainmentError.alreadyInWindow(childNode.id) }
  }

  /// The add itself, inside a transaction on this container's queue.
  nonisolated func attachChild(_ child: any ViewController, reservation: UInt64?, context: TransactionContext)
    async throws
  {
    try TreeLock.withLock(node, child.node) { held in
      try validateAttach(held, child, reservation: reservation, ignoringParent: false)
      child.node[held].reservation = nil
      child.node.attach(held, to: self)
      node[held].children.append(child)
      child.node[held].appearance.isMovingToParent = true
    }
    node.emit(.childAdded(child.node.id), transaction: context.id)
    await child.deliver(.willMove(toParent: self), in: context)
  }

  /// The removal half of a move: the old parent's callbacks, inside a
  /// transaction on this (old parent's) queue.
  nonisolated func detachChild(_ child: any ViewController, reservation: UInt64, context: TransactionContext)
    async throws
  {
    try TreeLock.withLock(node, child.node) { held in
      guard child.node.hasParent(held, self) else {
        throw ContainmentError.notAChild(child: child.node.id, parent: node.id)
      }
      guard child.node[held].reservation == reservation else { throw ContainmentError.childInFlight(child.node.id) }
      child.node[held].appearance.isMovingFromParent = true
    }
    await child.deliver(.willMove(toParent: nil), in: context)
    try await removeChild(child, reason: .moved, context: context)
  }

  /// Removes this controller from its parent and calls
  /// `didMove(toParent: nil)` itself; never `willMove(toParent: nil)`: call
  /// that first (C2).
  ///
  /// If the view is still installed in the parent's hierarchy it is removed too
  /// (it disappears if it was on screen), so the view hierarchy never holds a
  /// non-child's view.
  ///
  /// One transaction on the *parent's* queue; same waiting, cancellation and
  /// nesting rules as ``addChild(_:)``. Throws ``ContainmentError/noParent(_:)``
  /// or ``ContainmentError/tornDown(_:)``; then nothing changed.
  @discardableResult
  public nonisolated func removeFromParent() async throws -> TransactionHandle<Void> {
    let parent = try TreeLock.withLock(node) { (held: LinkSection) -> any ViewController in
      if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
      guard let parent = node[held].parent else { throw ContainmentError.noParent(node.id) }
      return parent
    }
    return try await Transaction.perform(on: .controller(parent)) { context in
      try await parent.removeChild(self, reason: .requested, context: context)
    }
  }

  /// The removal itself, inside a transaction on this container's queue.
  nonisolated func removeChild(_ child: any ViewController, reason: RemovalReason, context: TransactionContext)
    async throws
  {
    var pass = AppearancePass(animated: false)
    while true {
      // What the child's tree presents leaves with it, first (§10).
      let presenters = try TreeLock.withLock(node, child.node) { (held: LinkSection) -> [any ViewController] in
        guard child.node.hasParent(held, self) else { throw ContainmentError.noParent(child.node.id) }
        let presenters = child.presenters(held, includingSelf: true)
        if presenters.isEmpty { unlink(held, child, pass: &pass) }
        return presenters
      }
      if presenters.isEmpty { break }
      for presenter in presenters { await presenter.runDismissal(animated: false, reason: reason, context: context) }
    }
    node.emit(.childRemoved(child.node.id, reason: reason), transaction: context.id)
    await pass.deliverAll(in: context)
    await child.performDidMove(toParent: nil, in: context)
  }

  /// Under the link lock: takes `child`'s view out (its disappearance
  /// begun in `pass` if it was in a window) and unlinks it from this controller.
  private nonisolated func unlink(_ held: LinkSection, _ child: any ViewController, pass: inout AppearancePass) {
    if let childView = child.node[held].view, childView[held].superview != nil,
      let view = node[held].view, view.isAncestorOrSelf(held, of: childView)
    {
      if childView.window(held) != nil {
        pass.beginForwarding(held, in: childView, isAppearing: false)
      }
      childView.unlink(held)
    }
    // From the end: children come and go mostly there (a stack, a list
    // being edited), so removal does not grow with older siblings.
    if let index = node[held].children.lastIndex(where: { $0 === child }) { node[held].children.remove(at: index) }
    child.node.detachFromParent(held)
  }

  /// Tells this controller it is about to move to `parent` (or, with nil, to
  /// be removed): records the event and runs ``viewWillMove(toParent:)``.
  ///
  /// `addChild` calls it for you; call it yourself before removing a child
  /// (C2, C4). With nil, `isMovingFromParent` becomes true until the
  /// removal's appearance hooks are over.
  ///
  /// Runs the hook at once in the caller's task (not a transaction of its own;
  /// inside a transaction it is part of that transaction), on the caller's
  /// executor (`nonisolated(nonsending)`): only the hook hops, onto this
  /// controller's actor. On a controller whose tree was torn down it is
  /// refused, with no hook and no change, and reported as a
  /// `callIgnored(.tornDown)` event (§8). Outside a transaction it is not
  /// ordered with a teardown running in another task: if the controller's
  /// stop begins before the hook starts on its actor, the hook is skipped,
  /// with no event (V3: nothing after `viewDidTearDown()`).
  public nonisolated(nonsending) func willMove(toParent parent: (any ViewController)?) async {
    let context = TransactionContext.current?.innermostRunning
    await performWillMove(toParent: parent, in: context, asBody: context?.isBody == true)
  }

  /// ``willMove(toParent:)`` as the runtime calls it, with the transaction
  /// it runs in; `asBody` (the runtime's own body) lets a transaction that
  /// started before a teardown finish.
  nonisolated(nonsending) func performWillMove(
    toParent parent: (any ViewController)?, in context: TransactionContext?, asBody: Bool
  ) async {
    let node = self.node
    let tornDown = TreeLock.withLock(node) { (held: LinkSection) -> Bool in
      // A transaction that started before the teardown still finishes.
      if node[held].supervision.isTornDown, !asBody { return true }
      if parent == nil { node[held].appearance.isMovingFromParent = true }
      return false
    }
    if tornDown { return node.emit(.callIgnored(.tornDown), transaction: context?.id) }
    await deliver(.willMove(toParent: parent), in: context)
  }

  /// Tells this controller it moved to `parent` (or, with nil, was removed):
  /// records the event and runs ``viewDidMove(toParent:)``.
  ///
  /// Call it after installing a child's view (C1); `removeFromParent` calls it
  /// for you.
  ///
  /// Runs the hook at once in the caller's task, like ``willMove(toParent:)``,
  /// and is refused the same way on a torn-down tree.
  public nonisolated(nonsending) func didMove(toParent parent: (any ViewController)?) async {
    let context = TransactionContext.current?.innermostRunning
    if context?.isBody != true, node.isTornDown { return node.emit(.callIgnored(.tornDown), transaction: context?.id) }
    await performDidMove(toParent: parent, in: context)
  }

  /// ``didMove(toParent:)`` as the runtime calls it, with the transaction it
  /// runs in: never refused (a transaction that started before a teardown
  /// still finishes); the public call checks for a teardown first.
  nonisolated(nonsending) func performDidMove(toParent parent: (any ViewController)?, in context: TransactionContext?)
    async
  {
    await deliver(.didMove(toParent: parent), in: context)
    let node = self.node
    TreeLock.withLock(node) { held in
      // A removal is over: its events no longer go to the former ancestors.
      if parent == nil, node[held].parent == nil { node.endDeparture(held) }
      let state = node[held].appearance.machine.state
      guard state == .appeared || state == .disappeared else { return }
      if parent != nil {
        node[held].appearance.isMovingToParent = false
      } else {
        node[held].appearance.isMovingFromParent = false
      }
    }
  }
}
