import Synchronization

/// How objects get their link domain, and how domains merge.
///
/// A new controller, view or window starts in a domain of its own (taken
/// round robin from the table). Linked objects always share a domain: every
/// link is made by a section that holds both sides' domains, and it first
/// moves the joining side's whole component (everything linked to it,
/// transitively) into the other side's domain (``TreeLock/join(_:_:into:)``).
/// Unlinking moves nothing: both sides stay in the domain they shared, which
/// is only coarser than needed, never wrong.
extension TreeLock {
  private static let nextDomain = Atomic<Int>(0)

  /// The domain of a new object.
  static func domainForNewObject() -> Int {
    (nextDomain.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max) % domains.count
  }

  /// With the locks of `member`'s domain and of `domain` held: moves
  /// `member` and every object linked to it into `domain`. O(size of the
  /// component); nothing when `member` is in `domain` already.
  static func join(_ held: LinkSection, _ member: some LinkGuarded, into domain: Int) {
    let old = member.linkDomain
    guard old != domain else { return }
    domains.objectsLeft(old)
    // An object is moved when it is taken from `pending`: one found in the
    // new domain has been visited already (links go both ways).
    var pending: [any LinkGuarded] = [member]
    while let next = pending.popLast() {
      guard next.linkDomain == old else { continue }
      switch next {
      case let node as ControllerNode:
        let links = node[held]
        if let parent = links.parent { pending.append(parent.node) }
        for child in links.children { pending.append(child.node) }
        if let view = links.view { pending.append(view) }
        if let window = links.window { pending.append(window) }
        let presentation = links.presentation.value
        if let presented = presentation.presented { pending.append(presented.node) }
        if let presenting = presentation.presenting { pending.append(presenting.node) }
        if let covered = presentation.coveredLayer { pending.append(covered.view) }
        if links.idleWaiters > 0 { IdleWaiters.moved(held, links.idleWaiters, from: old, into: domain) }
        node.links.domain.store(domain, ordering: .relaxed)
        node.hierarchy.domain.store(domain, ordering: .relaxed)
      case let view as View:
        let links = view[held]
        if let superview = links.superview { pending.append(superview) }
        pending.append(contentsOf: links.subviews as [any LinkGuarded])
        if let window = links.hostWindow { pending.append(window) }
        if let owner = links.owner { pending.append(owner.node) }
        view.domain.store(domain, ordering: .relaxed)
      case let window as Window:
        pending.append(window.rootView)
        if let root = window[held].rootViewController { pending.append(root.node) }
        window.domain.store(domain, ordering: .relaxed)
        window.hierarchy.domain.store(domain, ordering: .relaxed)
      default:
        preconditionFailure("a link domain member of unknown type \(type(of: next))")
      }
    }
  }
}
