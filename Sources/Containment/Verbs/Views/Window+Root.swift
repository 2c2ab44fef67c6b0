import ContainmentLocking

extension Window {
  /// Shows `controller` as the window's root: loads its view if needed, sizes
  /// it to the window, installs it, and forwards appearance to it and to its
  /// installed descendants (A1).
  ///
  /// A previous root disappears first.
  ///
  /// Runs as one transaction on the window's queue (FIFO; cancellable while
  /// waiting). Throws ``ContainmentError/windowTornDown`` after the window's
  /// teardown, ``ContainmentError/tornDown(_:)`` if `controller`'s tree was
  /// torn down, ``ContainmentError/hasParent(_:)`` if `controller` is a
  /// child of some container, ``ContainmentError/alreadyPresented(_:)`` if it
  /// is presented (§10); from a transaction's body (a commit's animations on
  /// this window), ``ContainmentError/treeBusy(_:)`` if another transaction
  /// runs or waits in `controller`'s tree. Then nothing changes.
  @discardableResult
  public func setRootViewController(_ controller: (any ViewController)?, animated: Bool = false) async throws
    -> TransactionHandle<Void>
  {
    try await Transaction.perform(on: .window(self), adopting: controller.map { [$0] } ?? []) { context in
      try await self.replaceRoot(with: controller, animated: animated, reason: .replaced, context: context)
    }
  }

  /// Inside a transaction on this window's queue: takes `controller` off the
  /// window if it is still its root (V2, a faulted root isolated).
  func removeRoot(_ controller: any ViewController, reason: RemovalReason, context: TransactionContext) async throws {
    guard TreeLock.withLock(self, { held in self[held].rootViewController === controller && !self[held].isTornDown })
    else { return }
    try await replaceRoot(with: nil, animated: false, reason: reason, context: context)
  }

  /// `reason` is what the `dismissed` events of presentations over the old
  /// root say (V4).
  func replaceRoot(
    with controller: (any ViewController)?, animated: Bool, reason: RemovalReason, context: TransactionContext
  ) async throws {
    let old: (any ViewController)? = try TreeLock.withLock(self, controller?.node) { held in
      if self[held].isTornDown { throw ContainmentError.windowTornDown }
      if let controller {
        if controller.node[held].supervision.isTornDown { throw ContainmentError.tornDown(controller.node.id) }
        if controller.node[held].parent != nil { throw ContainmentError.hasParent(controller.node.id) }
        if controller.node[held].presenting != nil { throw ContainmentError.alreadyPresented(controller.node.id) }
        if controller.node[held].eventRouting.departure != nil || controller.node[held].reservation != nil {
          throw ContainmentError.childInFlight(controller.node.id)
        }
        if let window = controller.node[held].window, window !== self {
          throw ContainmentError.alreadyInWindow(controller.node.id)
        }
      }
      return self[held].rootViewController
    }
    if let old, old === controller { return }
    if let old {
      var pass = AppearancePass(animated: animated)
      let presentations = TreeLock.withLock(self) { (held: LinkSection) -> [any ViewController] in
        // Presentations over the tree leave with it, top layer first (§10).
        let layers = rootView[held].subviews.reversed().compactMap { $0[held].owner }.filter {
          $0.node[held].presenting != nil
        }
        for presented in layers {
          pass.beginForwarding(held, from: presented, isAppearing: false)
          presented.node[held].view?.unlink(held)
        }
        var all: [any ViewController] = []
        var frontier = layers
        while !frontier.isEmpty {
          // A presented layer off screen (covered by a `.fullScreen`
          // presentation from its own child) is in this window too.
          var covered: [any ViewController] = []
          for presented in frontier {
            var current: (any ViewController)? = presented
            while let controller = current, controller.node[held].presenting != nil,
              !all.contains(where: { $0 === controller })
            {
              all.append(controller)
              if let owner = controller.node[held].coveredLayer?.view[held].owner, owner.node[held].presenting != nil {
                covered.append(owner)
              }
              current = controller.node[held].presenting
            }
          }
          frontier = covered
        }
        return all
      }
      TreeLock.withLock(self) { held in
        if let view = old.node[held].view {
          pass.beginForwarding(held, in: view, isAppearing: false)
          view.unlink(held)
        }
        self[held].rootViewController = nil
      }
      await pass.deliverAll(in: context)
      let dismissed = TreeLock.withLock([self] + presentations.map(\.node)) {
        (held: LinkSection) -> [(presenter: ControllerNode, presented: ControllerID, style: PresentationStyle)] in
        presentations.compactMap { presented in
          presented.node.endPresentation(held).map { ($0.presenter, presented.node.id, $0.style) }
        }
      }
      for entry in dismissed {
        entry.presenter.emit(.dismissed(entry.presented, style: entry.style, reason: reason), transaction: context.id)
      }
      // Unlinked only now, so that its disappearance events keep the window's clock.
      TreeLock.withLock(self, old.node) { held in
        HierarchySlot.treeChanged(held, from: hierarchy, to: old.node.hierarchy)
        old.node[held].window = nil
        old.node.hierarchy[held].leftATree = true
        old.node.invalidatePositions(held)
      }
    }
    guard let controller else { return }
    await endPresentationsOfAReleasedWindow(over: controller, context: context)
    // Hosted before its view loads, so `viewDidLoad` already sees the
    // window's traits and clock (a split controller lays out by them).
    TreeLock.withLock(self, controller.node) { held in
      HierarchySlot.treeChanged(held, from: controller.node.position(held).treeSlot, to: hierarchy)
      TreeLock.join(held, controller.node, into: linkDomain)
      controller.node[held].window = self
      controller.node.invalidatePositions(held)
    }
    let view = await controller.loadViewIfNeeded(in: context)
    var pass = AppearancePass(animated: animated)
    TreeLock.withLock(self, view) { held in
      self[held].rootViewController = controller
      view[held].frame = Rect(x: 0, y: 0, width: rootView[held].frame.width, height: rootView[held].frame.height)
      rootView.link(held, view)
      pass.beginForwarding(held, in: view, isAppearing: true)
    }
    await pass.deliverAll(in: context)
  }
}
