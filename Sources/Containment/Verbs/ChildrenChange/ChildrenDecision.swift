import ContainmentLocking
/// The structural part of one children change, decided under the link lock.
///
/// - Complexity: O(p + t) where p is the length of the prefix the old and
///   new children share and t the length of what follows it: a push or a
///   pop compares the stack's entries by identity once and hashes only the
///   entries that change. Whether a controller was a child before is read
///   from its parent link (a child's parent is its container, ``checkInvariants()``).
struct ChildrenDecision {
  /// Children that leave, in their old order.
  let removed: [any ViewController]
  /// Children that join, in their new order.
  let added: [any ViewController]
  /// For more than a few controllers: their identities, hashed.
  ///
  /// A few (a push or a pop: one) are searched instead: no allocation.
  private let removedIdentities: Set<ObjectIdentifier>?
  private let addedIdentities: Set<ObjectIdentifier>?
  /// Whether `new` lists as many distinct controllers as entries.
  let newIsDistinct: Bool

  /// Under the link lock, before the change is linked: `old` is `container`'s
  /// current children.
  init(_ held: LinkSection, container: any ViewController, old: [any ViewController], new: [any ViewController]) {
    let shared = min(old.count, new.count)
    var prefix = 0
    while prefix < shared, old[prefix] === new[prefix] { prefix += 1 }
    let newTail = new[prefix...]
    let newTailIdentities = Set(newTail.lazy.map { ObjectIdentifier($0) })
    let removed = old[prefix...].filter { !newTailIdentities.contains(ObjectIdentifier($0)) }
    let added = newTail.filter { !$0.node.hasParent(held, container) }
    self.removed = removed
    self.added = added
    self.removedIdentities = Self.identities(removed)
    self.addedIdentities = Self.identities(added)
    self.newIsDistinct =
      newTailIdentities.count == newTail.count && old.count - removed.count + added.count == new.count
  }

  /// Under the link lock: the decision for `edit` of `old`, `container`'s
  /// current children.
  ///
  /// O(1) to append, O(k) to remove the last k.
  init(_ held: LinkSection, container: any ViewController, old: [any ViewController], edit: ChildrenChange.Edit) {
    switch edit {
    case .append(let controller):
      removed = []
      added = controller.node.hasParent(held, container) ? [] : [controller]
      newIsDistinct = !controller.node.hasParent(held, container)
    case .removeLast(let count):
      removed = Array(old.suffix(count))
      added = []
      newIsDistinct = true
    }
    removedIdentities = Self.identities(removed)
    addedIdentities = Self.identities(added)
  }

  private static func identities(_ controllers: [any ViewController]) -> Set<ObjectIdentifier>? {
    controllers.count > 8 ? Set(controllers.lazy.map { ObjectIdentifier($0) }) : nil
  }

  private static func contains(
    _ controller: any ViewController, in controllers: [any ViewController], _ identities: Set<ObjectIdentifier>?
  ) -> Bool {
    identities?.contains(ObjectIdentifier(controller)) ?? controllers.contains { $0 === controller }
  }

  /// Whether `controller` is a child after the change.
  func isChildAfter(_ held: LinkSection, _ controller: any ViewController, of container: any ViewController) -> Bool {
    if Self.contains(controller, in: added, addedIdentities) { return true }
    return controller.node.hasParent(held, container) && !Self.contains(controller, in: removed, removedIdentities)
  }

  /// Whether `controller` was a child before the change (it is not joining).
  func wasChildBefore(_ controller: any ViewController) -> Bool {
    !Self.contains(controller, in: added, addedIdentities)
  }
}
