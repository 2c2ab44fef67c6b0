/// What a controller offers the containers that show it (the navigation
/// item a navigation controller's bar shows, the preferred content size its
/// parent is told of), and a container's own bookkeeping.
///
/// Guarded by the link lock; most controllers never set any of it, so the
/// node keeps it out of line.
struct ContainerAttributes: OutOfLineValue {
  /// What a navigation controller shows for this controller (title, back title).
  var navigationItem = NavigationItem()
  var preferredContentSize = Size.zero
  /// A container's own bookkeeping cells, which move with it from link
  /// domain to domain (``LinkCell/attached(_:to:)``).
  var attachedCells: [any DomainFollower] = []
  /// Children a change has taken out of `children` but not unlinked yet.
  ///
  /// Their `parent` still points here while their `willMove(toParent: nil)`
  /// and disappearance run. Listed so that links go both ways: a join that
  /// moves this controller to another link domain moves them too
  /// (``ControllerNode/appendLinkedObjects(_:to:)``).
  var leavingChildren: [ControllerNode] = []
}
