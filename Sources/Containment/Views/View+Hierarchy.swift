extension View {
  /// Adds `subview` as the frontmost subview (removing it from its current
  /// superview first). If this moves controllers' root views into or out of a
  /// window, their appearance hooks run, with automatic forwarding to their
  /// installed children (A1): will-hooks, then `viewIsAppearing`, then
  /// did-hooks, before this call returns.
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
    guard let governor = TreeLock.withLock(self, subview, { held in _governor() ?? subview._superview?._governor() })
    else {
      try TreeLock.withLock(self, subview) { held in
        try _validateInsert(subview, governor: nil)
        _link(subview, at: index)
      }
      return
    }
    try await Transaction.perform(on: governor) { context in
      var pass = AppearancePass(animated: false)
      try TreeLock.withLock([self, subview, governor.member]) { held in
        try self._validateInsert(subview, governor: governor)
        let wasInWindow = subview._window() != nil
        let willBeInWindow = self._window() != nil
        if wasInWindow != willBeInWindow {
          pass._begin(AppearancePass._forwardingTargets(in: subview), isAppearing: willBeInWindow)
        }
        self._link(subview, at: index)
      }
      await pass.deliverAll(in: context)
    }
  }

  /// Removes this view from its superview. Controllers whose root views leave
  /// a window disappear (will-hooks, then did-hooks) before this returns.
  /// A transaction of the container that owns the superview; no-op without a
  /// superview. Throws ``ContainmentError/tornDown(_:)`` if the view holds
  /// the root view of a torn-down controller or the owning container was
  /// torn down, ``ContainmentError/windowTornDown`` for a torn-down window's
  /// own view; then nothing changed.
  public func removeFromSuperview() async throws {
    guard let governor = TreeLock.withLock(self, { held in _superview?._governor() }) else {
      TreeLock.withLock(self) { held in _unlink() }
      return
    }
    try await Transaction.perform(on: governor) { context in
      var pass = AppearancePass(animated: false)
      try TreeLock.withLock(self, governor.member) { held in
        guard self._superview != nil else { return }
        try self._validateNotTornDown(governor: governor)
        if self._window() != nil {
          pass._begin(AppearancePass._forwardingTargets(in: self), isAppearing: false)
        }
        self._unlink()
      }
      await pass.deliverAll(in: context)
    }
  }

  /// Under the link lock: who serializes changes below this view.
  func _governor() -> Governor? {
    if let controller = _governingController() { return .controller(controller) }
    if let window = _window() { return .window(window) }
    return nil
  }

  /// Under the link lock: the checks of removing this view (or adding it)
  /// under `governor` on a torn-down tree, the view's own controllers first.
  func _validateNotTornDown(governor: Governor?) throws {
    for (_, controller) in _topOwnedViews() where controller.node._isTornDown {
      throw ContainmentError.tornDown(controller.node.id)
    }
    switch governor {
    case .controller(let container)? where container.node._isTornDown:
      throw ContainmentError.tornDown(container.node.id)
    case .window(let window)? where window._isTornDown:
      throw ContainmentError.windowTornDown
    default:
      break
    }
  }

  func _validateInsert(_ subview: View, governor: Governor?) throws {
    if subview._isAncestorOrSelf(of: self) { throw ContainmentError.viewHierarchyCycle }
    try subview._validateNotTornDown(governor: governor)
    let owned = subview._topOwnedViews()
    guard !owned.isEmpty else { return }
    for (_, controller) in owned {
      switch governor {
      case .controller(let container)?:
        guard controller.node._hasParent(container) else { throw ContainmentError.foreignView }
      case .window(let window)?:
        guard window._rootViewController === controller else { throw ContainmentError.foreignView }
      case nil:
        // A detached view may hold a controller's view only while being built
        // by that controller's parent; it is checked again when attached.
        break
      }
    }
    if let oldGovernor = subview._superview?._governor(), let governor, !oldGovernor.isSame(as: governor) {
      throw ContainmentError.foreignView
    }
  }
}

extension Governor {
  func isSame(as other: Governor) -> Bool { queue === other.queue }
}
