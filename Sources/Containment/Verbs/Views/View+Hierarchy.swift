import ContainmentLocking
extension View {
  /// Adds `subview` as the frontmost subview (removing it from its current
  /// superview first).
  ///
  /// If this moves controllers' root views into or out of a window, their
  /// appearance hooks run, with automatic forwarding to their installed
  /// children (A1): will-hooks, then `viewIsAppearing`, then did-hooks, before
  /// this call returns.
  ///
  /// Runs as a transaction of the container whose view hierarchy this view
  /// belongs to (or of the window, for the window's own view): serialized
  /// with that container's other requests, with the waiting, cancellation and
  /// nesting rules of ``ViewController/addChild(_:)``.
  ///
  /// Throws ``ContainmentError/viewHierarchyCycle`` if `subview` is this view
  /// or one of its ancestors, ``ContainmentError/foreignView`` if `subview`
  /// holds the root view of a controller that is not a child of that container
  /// (a child's root view is in its parent's hierarchy only while it is a
  /// child, §2), ``ContainmentError/tornDown(_:)`` if `subview` holds
  /// a torn-down controller's root view or the container was torn down,
  /// ``ContainmentError/windowTornDown`` for a torn-down window's own view;
  /// then nothing changed.
  public func addSubview(_ subview: View) async throws {
    try await insertSubview(subview, at: nil)
  }

  /// Like ``addSubview(_:)``, at `index` in ``subviews`` (clamped).
  public func insertSubview(_ subview: View, at index: Int?) async throws {
    guard
      let governor = TreeLock.withLock(
        self, subview, { held in governor(held) ?? subview[held].superview?.governor(held) })
    else {
      try TreeLock.withLock(self, subview) { held in
        try validateInsert(held, subview, governor: nil)
        link(held, subview, at: index)
      }
      return
    }
    try await Transaction.perform(on: governor) { context in
      var pass = AppearancePass(animated: false)
      try TreeLock.withLock(self, subview, governor.member) { held in
        try self.validateInsert(held, subview, governor: governor)
        let wasInWindow = subview.window(held) != nil
        let willBeInWindow = self.window(held) != nil
        if wasInWindow != willBeInWindow {
          pass.beginForwarding(held, in: subview, isAppearing: willBeInWindow)
        }
        self.link(held, subview, at: index)
      }
      await pass.deliverAll(in: context)
    }
  }

  /// Removes this view from its superview.
  ///
  /// Controllers whose root views leave a window disappear (will-hooks, then
  /// did-hooks) before this returns. A transaction of the container that owns
  /// the superview; no-op without a superview. Throws
  /// ``ContainmentError/tornDown(_:)`` if the view holds the root view of a
  /// torn-down controller or the owning container was torn down,
  /// ``ContainmentError/windowTornDown`` for a torn-down window's own view;
  /// then nothing changed.
  public func removeFromSuperview() async throws {
    guard let governor = TreeLock.withLock(self, { held in self[held].superview?.governor(held) }) else {
      TreeLock.withLock(self) { held in unlink(held) }
      return
    }
    try await Transaction.perform(on: governor) { context in
      var pass = AppearancePass(animated: false)
      try TreeLock.withLock(self, governor.member) { held in
        guard self[held].superview != nil else { return }
        try self.validateNotTornDown(held, governor: governor)
        if self.window(held) != nil {
          pass.beginForwarding(held, in: self, isAppearing: false)
        }
        self.unlink(held)
      }
      await pass.deliverAll(in: context)
    }
  }

  /// Under the link lock: who serializes changes below this view.
  func governor(_ held: LinkSection) -> Governor? {
    if let controller = governingController(held) { return .controller(controller) }
    if let window = window(held) { return .window(window) }
    return nil
  }

  /// Under the link lock: the checks of removing this view (or adding it)
  /// under `governor` on a torn-down tree, the view's own controllers first.
  func validateNotTornDown(_ held: LinkSection, governor: Governor?) throws {
    for (_, controller) in topOwnedViews(held) where controller.node[held].supervision.isTornDown {
      throw ContainmentError.tornDown(controller.node.id)
    }
    switch governor {
    case .controller(let container)? where container.node[held].supervision.isTornDown:
      throw ContainmentError.tornDown(container.node.id)
    case .window(let window)? where window[held].isTornDown:
      throw ContainmentError.windowTornDown
    default:
      break
    }
  }

  func validateInsert(_ held: LinkSection, _ subview: View, governor: Governor?) throws {
    if subview[held].hostWindow != nil { throw ContainmentError.windowRootView }
    if subview.isAncestorOrSelf(held, of: self) { throw ContainmentError.viewHierarchyCycle }
    try subview.validateNotTornDown(held, governor: governor)
    let owned = subview.topOwnedViews(held)
    guard !owned.isEmpty else { return }
    for (_, controller) in owned {
      switch governor {
      case .controller(let container)?:
        guard controller.node.hasParent(held, container) else { throw ContainmentError.foreignView }
      case .window(let window)?:
        guard window[held].rootViewController === controller else { throw ContainmentError.foreignView }
      case nil:
        // A detached view may hold a controller's view only while being built
        // by that controller's parent; it is checked again when attached.
        break
      }
    }
    if let oldGovernor = subview[held].superview?.governor(held), let governor, !oldGovernor.isSame(as: governor) {
      throw ContainmentError.foreignView
    }
  }
}

extension Governor {
  func isSame(as other: Governor) -> Bool {
    switch (self, other) {
    case (.controller(let a), .controller(let b)): a.node === b.node
    case (.window(let a), .window(let b)): a === b
    default: false
    }
  }
}
