/// The structural part of one children change, decided under the link lock.
struct ChildrenDecision {
  let old: [any ViewController]
  let new: [any ViewController]
  /// Children that leave, in their old order.
  let removed: [any ViewController]
  /// Children that join, in their new order.
  let added: [any ViewController]

  init(old: [any ViewController], new: [any ViewController]) {
    self.old = old
    self.new = new
    self.removed = old.filter { controller in !new.contains { $0 === controller } }
    self.added = new.filter { controller in !old.contains { $0 === controller } }
  }
}
