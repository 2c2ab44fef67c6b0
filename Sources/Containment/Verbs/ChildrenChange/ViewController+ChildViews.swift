import ContainmentLocking
/// Lock-held helpers the built-in containers share: installing a child's
/// root view in the container's view and taking it out again. Call them only
/// inside `TreeLock.withLock`, from a transaction on the container's queue.
extension ViewController {
  /// Whether `child`'s root view is in this controller's view hierarchy.
  nonisolated func isInstalled(_ held: LinkSection, _ child: any ViewController) -> Bool {
    guard let view = node[held].view, let childView = child.node[held].view else { return false }
    return Self.isInstalled(held, childView, in: view)
  }

  /// Whether a child's root view `childView` is in `view`'s hierarchy.
  static func isInstalled(_ held: LinkSection, _ childView: View, in view: View) -> Bool {
    childView[held].superviewLink != nil && view.isAncestorOrSelf(held, of: childView)
  }

  /// Adds `child`'s loaded root view to this controller's view (below
  /// `sibling`'s view if that is installed, else frontmost) and pins it with
  /// `placement`.
  ///
  /// Does nothing if either view is not loaded. Appearance is the caller's: it
  /// decides with an `AppearancePass` in the same critical section.
  nonisolated func install(
    _ held: LinkSection,
    _ child: any ViewController, _ placement: ChildPlacement, below sibling: (any ViewController)? = nil
  ) {
    guard let view = node[held].view, let childView = child.node[held].view else { return }
    Self.install(held, childView, placement, in: view, below: sibling?.node[held].view)
  }

  /// ``install(_:_:_:below:)`` with the views at hand: a child's root view
  /// `childView` in `view`, below `siblingView` if that is installed.
  static func install(
    _ held: LinkSection, _ childView: View, _ placement: ChildPlacement, in view: View, below siblingView: View?
  ) {
    var index: Int?
    if let siblingView, siblingView.hasSuperview(held, view) {
      index = view[held].subviews.firstIndex { $0 === siblingView }
    }
    if !childView.hasSuperview(held, view) || index != nil {
      view.link(held, childView, at: index)
    }
    pin(held, childView, placement, in: view)
  }

  /// Re-pins an installed child's root view with `placement`.
  nonisolated func pin(_ held: LinkSection, _ child: any ViewController, _ placement: ChildPlacement) {
    guard let view = node[held].view, let childView = child.node[held].view else { return }
    Self.pin(held, childView, placement, in: view)
  }

  /// ``pin(_:_:_:)`` with the views at hand: does nothing unless `childView`
  /// is a subview of `view`.
  static func pin(_ held: LinkSection, _ childView: View, _ placement: ChildPlacement, in view: View) {
    guard childView.hasSuperview(held, view) else { return }
    let item = ObjectIdentifier(childView)
    view[held].constraints.removeAll { $0.item == item }
    placement.appendConstraints(item: item, container: ObjectIdentifier(view), to: &view[held].constraints)
    childView[held].frame = placement.frame(
      in: Rect(x: 0, y: 0, width: view[held].frame.width, height: view[held].frame.height))
  }

  /// Takes `child`'s root view out of this controller's view, with its constraints.
  nonisolated func uninstall(_ held: LinkSection, _ child: any ViewController) {
    guard let childView = child.node[held].view else { return }
    Self.uninstall(held, childView, from: node[held].view)
  }

  /// ``uninstall(_:_:)`` with the views at hand: takes a child's root view
  /// `childView` out of its superview, and its constraints out of `view`.
  static func uninstall(_ held: LinkSection, _ childView: View, from view: View?) {
    if let view {
      let item = ObjectIdentifier(childView)
      view[held].constraints.removeAll { $0.item == item }
    }
    childView.unlink(held)
  }

}
