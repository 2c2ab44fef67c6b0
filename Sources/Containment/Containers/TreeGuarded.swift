/// A container's own bookkeeping (selection, delegate, collapse state),
/// guarded by its tree's link lock like the links it is decided together
/// with.
///
/// Its value is reachable only inside a section (`state[held]`) that holds
/// the lock of the container's domain (debug builds check which): a
/// container's decisions ("which child is selected, is its view installed,
/// is it on screen") must read this and the tree's links at one instant.
final class TreeGuarded<Value>: @unchecked Sendable, LinkGuardedState {
  /// The container's node, whose domain guards the value. The container
  /// holds both, so the node outlives every access.
  private unowned let owner: ControllerNode
  // Release builds skip Swift's dynamic exclusivity checks (`Guarded`).
  #if DEBUG
    var guarded: Guarded<Value>
  #else
    @exclusivity(unchecked) var guarded: Guarded<Value>
  #endif

  init(_ value: Value, of owner: ControllerNode) {
    self.guarded = Guarded(value)
    self.owner = owner
  }

  var linkDomain: Int { owner.linkDomain }
}
