/// Lock-held helpers the built-in containers share: installing a child's
/// root view in the container's view and taking it out again. Call them only
/// inside `TreeLock.withLock`, from a transaction on the container's queue.
extension ViewController {
  /// Whether `child`'s root view is in this controller's view hierarchy.
  nonisolated func _isInstalled(_ child: any ViewController) -> Bool {
    guard let view = node._view, let childView = child.node._view, childView._superview != nil else { return false }
    return view._isAncestorOrSelf(of: childView)
  }

  /// Adds `child`'s loaded root view to this controller's view (below
  /// `sibling`'s view if that is installed, else frontmost) and pins it with
  /// `placement`. Does nothing if either view is not loaded. Appearance is
  /// the caller's: it decides with an `AppearancePass` in the same critical
  /// section.
  nonisolated func _install(
    _ child: any ViewController, _ placement: ChildPlacement, below sibling: (any ViewController)? = nil
  ) {
    guard let view = node._view, let childView = child.node._view else { return }
    var index: Int?
    if let sibling, let siblingView = sibling.node._view, siblingView._hasSuperview(view) {
      index = view._subviews.firstIndex { $0 === siblingView }
    }
    if !childView._hasSuperview(view) || index != nil {
      view._link(childView, at: index)
    }
    _pin(child, placement)
  }

  /// Re-pins an installed child's root view with `placement`.
  nonisolated func _pin(_ child: any ViewController, _ placement: ChildPlacement) {
    guard let view = node._view, let childView = child.node._view, childView._hasSuperview(view) else { return }
    let item = ObjectIdentifier(childView)
    view._constraints.removeAll { $0.item == item }
    placement.appendConstraints(item: item, container: ObjectIdentifier(view), to: &view._constraints)
    childView._frame = placement.frame(in: Rect(x: 0, y: 0, width: view._frame.width, height: view._frame.height))
  }

  /// Takes `child`'s root view out of this controller's view, with its constraints.
  nonisolated func _uninstall(_ child: any ViewController) {
    guard let childView = child.node._view else { return }
    if let view = node._view {
      let item = ObjectIdentifier(childView)
      view._constraints.removeAll { $0.item == item }
    }
    childView._unlink()
  }

}
