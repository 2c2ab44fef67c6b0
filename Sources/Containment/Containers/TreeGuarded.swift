/// A container's own bookkeeping (selection, delegate, collapse state),
/// guarded by its tree's link lock like the links it is decided together
/// with.
///
/// Read and write ``_value`` only inside a section that holds the lock of
/// the container's domain (debug builds check it): a container's decisions
/// ("which child is selected, is its view installed, is it on screen") must
/// read this and the tree's links at one instant.
final class TreeGuarded<Value>: @unchecked Sendable {
  /// The container's node, whose domain guards the value. The container
  /// holds both, so the node outlives every access.
  private unowned let owner: ControllerNode
  // Release builds skip Swift's dynamic exclusivity checks here, as for a
  // controller's links (see `ControllerNode.links`).
  #if DEBUG
    private var value: Value
  #else
    @exclusivity(unchecked) private var value: Value
  #endif

  init(_ value: Value, of owner: ControllerNode) {
    self.value = value
    self.owner = owner
  }

  // MARK: Guarded by TreeLock
  var _value: Value {
    _read {
      TreeLock.assertHeld(owner)
      yield value
    }
    _modify {
      TreeLock.assertHeld(owner)
      yield &value
    }
  }
}
