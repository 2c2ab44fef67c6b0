/// What a controller offers the containers that show it: the navigation
/// item a navigation controller's bar shows, and the preferred content size
/// its parent is told of.
///
/// Guarded by the link lock; most controllers never set either, so the node
/// keeps them out of line.
struct ContainerAttributes: OutOfLineValue {
  /// What a navigation controller shows for this controller (title, back title).
  var navigationItem = NavigationItem()
  var preferredContentSize = Size.zero
  /// A container's own bookkeeping cells, which move with it from link
  /// domain to domain (``LinkCell/attached(_:to:)``).
  var attachedCells: [any DomainFollower] = []
}
