/// Where a controller's events go besides its own stream, owned by the events
/// feature: the tree-wide stream it is the root of, if one was asked for, and,
/// while a removal's hooks run after it was unlinked, its former ancestors'
/// tree streams (E2).
///
/// Isolation: a field of the controller's ``ControllerLinks``, read and
/// changed only inside a ``TreeLock`` section (`node[held].eventRouting`).
struct EventRouting {
  /// The stream of ``ViewController/treeEvents(policy:)``, created by its
  /// first subscriber.
  var treeEvents: Broadcaster<LifecycleEvent>?
  /// Set while a removal's hooks run after the controller was unlinked: where
  /// its events still go (its former ancestors' tree streams, E2).
  var departure: ControllerNode.Departure?
}
