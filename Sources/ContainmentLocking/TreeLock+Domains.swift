import Synchronization

/// How objects get their link domain, and how domains merge.
///
/// A new controller, view or window starts in a domain of its own (taken
/// round robin from the table). Linked objects always share a domain: every
/// link is made by a section that holds both sides' domains, and it first
/// moves the joining side's whole component (everything linked to it,
/// transitively) into the other side's domain (``TreeLock/join(_:_:into:)``).
/// Unlinking moves nothing by itself; a part that left its tree (a removed
/// child, a dismissed presentation) is moved into a fresh domain later, by
/// its owner's choice (``separate(_:if:)``).
extension TreeLock {
  private static let nextDomain = Atomic<Int>(0)

  /// The domain of a new object.
  public static func domainForNewObject() -> Int {
    (nextDomain.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max) % domains.count
  }

  /// With the locks of `member`'s domain and of `domain` held: moves
  /// `member` and every object linked to it into `domain`.
  ///
  /// O(size of the component); nothing when `member` is in `domain` already.
  public static func join(_ held: LinkSection, _ member: some LinkedObject, into domain: Int) {
    let old = member.linkDomain
    guard old != domain else { return }
    domains.objectsLeft(old)
    // An object is moved when it is taken from `pending`: one found in the
    // new domain has been visited already (links go both ways).
    var pending: [any LinkedObject] = [member]
    while let next = pending.popLast() {
      guard next.linkDomain == old else { continue }
      next.appendLinkedObjects(held, to: &pending)
      next.move(held, from: old, to: domain)
    }
  }
}

extension TreeLock {
  /// Moves `member` and everything linked to it into a domain other than
  /// its current one, if `isSeparate` (run under the locks of both) says it
  /// has left its tree: a tree that leaves another shares its lock no more
  /// than a tree made new does.
  ///
  /// Its own section, after the one that unlinked `member`: a section never
  /// takes a lock inside another. O(size of `member`'s component). If
  /// `member` was linked again meanwhile, `isSeparate` says so and nothing
  /// moves; a whole component moves in any case, so a wrong answer costs
  /// time, never safety.
  ///
  /// Returns the domain it moved into, or nil if nothing moved.
  @discardableResult
  public static func separate(_ member: some LinkedObject, if isSeparate: (LinkSection) -> Bool) -> Int? {
    var fresh = domainForNewObject()
    while true {
      let old = member.linkDomain
      if fresh == old { fresh = (fresh + 1) % domains.count }
      domains.lock(min(old, fresh), retrying: triesBeforeSleeping)
      domains.lock(max(old, fresh), retrying: triesBeforeSleeping)
      guard member.linkDomain == old else {
        domains.unlock(old)
        domains.unlock(fresh)
        continue
      }
      defer {
        domains.unlock(old)
        domains.unlock(fresh)
        sectionEnded()
      }
      sectionStarted(holding: [old, fresh])
      let held = LinkSection()
      guard isSeparate(held) else { return nil }
      join(held, member, into: fresh)
      return fresh
    }
  }
}

/// An object that links to others (a controller's node, a view, a window):
/// the unit that link domains move (``TreeLock/join(_:_:into:)``).
///
/// Each lists its own links, so the lock layer knows none of their types.
public protocol LinkedObject: LinkGuarded {
  /// With this object's domain held: appends every object it links to.
  func appendLinkedObjects(_ held: LinkSection, to objects: inout [any LinkedObject])
  /// With the locks of both domains held: records that this object (and
  /// whatever it owns that its domain guards) is now in `domain`.
  func move(_ held: LinkSection, from old: Int, to domain: Int)
}
