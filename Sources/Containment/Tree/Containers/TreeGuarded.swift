import ContainmentLocking

/// A container's own bookkeeping (selection, delegate, collapse state),
/// guarded by its tree's link lock like the links it is decided together
/// with: a container's decisions ("which child is selected, is its view
/// installed, is it on screen") must read this and the tree's links at one
/// instant.
///
/// Its value is reachable only inside a section (`state[held]`).
typealias TreeGuarded<Value> = LinkCell<Value>

extension LinkCell {
  /// A cell for `owner`'s bookkeeping, guarded by `owner`'s domain and moved
  /// with it from domain to domain (the node lists it among the cells that
  /// follow it, ``ContainerAttributes/attachedCells``).
  static func attached(_ value: Value, to owner: ControllerNode) -> LinkCell<Value> {
    TreeLock.withLock(owner) { held in
      let cell = LinkCell(value, domain: owner.linkDomain)
      owner[held].containerAttributes.value.attachedCells.append(cell)
      return cell
    }
  }
}

/// A cell that moves with the controller it belongs to (see
/// ``LinkCell/attached(_:to:)``).
protocol DomainFollower: AnyObject {
  /// With the locks of both domains held: the owner moved to `domain`.
  func follow(_ held: LinkSection, to domain: Int)
}

extension LinkCell: DomainFollower {
  func follow(_ held: LinkSection, to domain: Int) {
    self.domain.store(domain, ordering: .relaxed)
  }
}
