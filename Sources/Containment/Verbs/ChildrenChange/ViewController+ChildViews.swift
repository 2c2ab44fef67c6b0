import ContainmentLocking
/// Lock-held helpers the built-in containers share: installing a child's
/// root view in the container's view and taking it out again. Call them only
/// inside `TreeLock.withLock`, from a transaction on the container's queue.
extension ViewController {
  /// Whether `child`'s root view is in this controller's view hierarchy.
  nonisolated func isInstalled(_ held: LinkSection, _ child: any ViewController) -> Bool {
    guard let view = node[held].view, let childView = child.node[held].view, childView[held].superview != nil else {
      return false
    }
    return view.isAncestorOrSelf(held, of: childView)
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
    var index: Int?
    if let sibling, let siblingView = sibling.node[held].view, siblingView.hasSuperview(held, view) {
      index = view[held].subviews.firstIndex { $0 === siblingView }
    }
    if !childView.hasSuperview(held, view) || index != nil {
      view.link(held, childView, at: index)
    }
    pin(held, child, placement)
  }

  /// Re-pins an installed child's root view with `placement`.
  nonisolated func pin(_ held: LinkSection, _ child: any ViewController, _ placement: ChildPlacement) {
    guard let view = node[held].view, let childView = child.node[held].view, childView.hasSuperview(held, view) else {
      return
    }
    let item = ObjectIdentifier(childView)
    view[held].constraints.removeAll { $0.item == item }
    placement.appendConstraints(item: item, container: ObjectIdentifier(view), to: &view[held].constraints)
    childView[held].frame = placement.frame(
      in: Rect(x: 0, y: 0, width: view[held].frame.width, height: view[held].frame.height))
  }

  /// Takes `child`'s root view out of this controller's view, with its constraints.
  nonisolated func uninstall(_ held: LinkSection, _ child: any ViewController) {
    guard let childView = child.node[held].view else { return }
    if let view = node[held].view {
      let item = ObjectIdentifier(childView)
      view[held].constraints.removeAll { $0.item == item }
    }
    childView.unlink(held)
  }

}
