import ContainmentLocking
/// A container's own bookkeeping (selection, delegate, collapse state),
/// guarded by its tree's link lock like the links it is decided together
/// with.
///
/// Its value is reachable only inside a section (`state[held]`) that holds
/// the lock of the container's domain (debug builds check which): a
/// container's decisions ("which child is selected, is its view installed,
/// is it on screen") must read this and the tree's links at one instant.
final class TreeGuarded<Value>: @unchecked Sendable, LinkGuarded {
  /// The container's node, whose domain guards the value. The container
  /// holds both, so the node outlives every access.
  private unowned let owner: ControllerNode
  // Private: reachable only through the subscript below, with a
  // `LinkSection`. Release builds skip Swift's dynamic exclusivity checks
  // here (`LinkSection` says why).
  #if DEBUG
    private var guarded: Value
  #else
    @exclusivity(unchecked) private var guarded: Value
  #endif

  /// The guarded state, inside a section; debug builds check that the
  /// section holds the lock of this object's domain.
  @inline(__always)
  subscript(_ held: LinkSection) -> Value {
    _read {
      TreeLock.assertHeld(self)
      yield guarded
    }
    _modify {
      TreeLock.assertHeld(self)
      yield &guarded
    }
  }

  init(_ value: Value, of owner: ControllerNode) {
    self.guarded = value
    self.owner = owner
  }

  var linkDomain: Int { owner.linkDomain }
}
