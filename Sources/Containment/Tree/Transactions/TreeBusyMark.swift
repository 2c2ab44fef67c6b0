import ContainmentLocking
import Synchronization

/// One transaction that keeps its tree off the fast path of hierarchical
/// exclusion: admitted and running, or waiting as pending.
///
/// It is held by the tree slot of every tree it has belonged to since: when
/// a tree merges into another or a subtree leaves, the marks of the old tree
/// are added to the new one (``HierarchySlot/treeChanged(_:from:to:leaving:)``),
/// so no tree ever looks idle while a transaction that may overlap runs.
/// Those trees may have different link domains by the time it ends (a
/// subtree that left joins another tree), so the mark's own fields have a
/// leaf lock: its holder reads which trees and ancestors it is in, takes
/// their domains, and checks that nothing changed meanwhile
/// (``HierarchyExclusion/withLinks(of:_:chain:touching:_:)``). Every change
/// to them is made holding the domain of one of its trees (or by its owner
/// before it is in any), so once those domains are held they stay as read.
struct TreeBusyMark: Sendable {
  struct State {
    /// For an admitted transaction: its governor.
    let governor: Governor?
    /// For an admitted transaction: the ancestors whose `activeBelow` counts
    /// it; nil until counted.
    ///
    /// The fast path admits without walking to the root; the ancestors are
    /// counted when a second transaction of the tree needs those counts, or
    /// before the tree's shape changes.
    var ancestors: [HierarchySlot]?
    /// The tree slots that hold it.
    var trees = SlotList()
  }
  /// A mark is one object, its lock and state: copies are the same mark.
  private let state: Locked<State>

  init(governor: Governor?) { state = Locked(State(governor: governor)) }

  /// A mark admitted into `tree`, its ancestors counted or not (the caller
  /// adds it to the tree's `treeMarks`).
  init(governor: Governor, ancestors: [HierarchySlot]?, tree: HierarchySlot) {
    state = Locked(State(governor: governor, ancestors: ancestors, trees: SlotList(tree)))
  }

  static func === (a: TreeBusyMark, b: TreeBusyMark) -> Bool { a.state.isSame(as: b.state) }

  /// For an admitted transaction: its governor.
  var governor: Governor? { state.withLock { $0.governor } }

  /// The slots whose domains guard what this mark touches: its trees and
  /// its counted ancestors.
  var slots: [HierarchySlot] {
    state.withLock { Array($0.trees) + ($0.ancestors ?? []) }
  }

  /// With the lock of `domain` held: if all its trees and ancestors are in
  /// that domain (then its lists cannot change while it is held), takes
  /// them (it is in no tree afterwards); nil otherwise.
  func take(ifAllIn domain: Int) -> (trees: SlotList, ancestors: [HierarchySlot]?)? {
    state.withLock { state in
      guard state.trees.allSatisfy({ $0.linkDomain == domain }),
        (state.ancestors ?? []).allSatisfy({ $0.linkDomain == domain })
      else { return nil }
      defer { state.trees = SlotList() }
      return (state.trees, state.ancestors)
    }
  }

  /// With the domains of all its trees held: takes its trees and ancestors
  /// (it is in no tree afterwards).
  func take() -> (trees: SlotList, ancestors: [HierarchySlot]?) {
    state.withLock { state in
      defer { state.trees = SlotList() }
      return (state.trees, state.ancestors)
    }
  }

  /// Whether its trees and ancestors are exactly `slots` (see ``slots``).
  func touches(exactly slots: [HierarchySlot]) -> Bool {
    state.withLock { state in
      let ancestors = state.ancestors ?? []
      guard state.trees.count + ancestors.count == slots.count else { return false }
      return zip(Array(state.trees) + ancestors, slots).allSatisfy { $0 === $1 }
    }
  }

  /// With the link domain of one of its trees held.
  var ancestors: [HierarchySlot]? {
    get { state.withLock { $0.ancestors } }
    nonmutating set { state.withLock { $0.ancestors = newValue } }
  }

  /// With the domain of `tree` held, and of one of its trees if it has any.
  func add(_ held: LinkSection, to tree: HierarchySlot) {
    let added = state.withLock { state in
      guard !state.trees.contains(where: { $0 === tree }) else { return false }
      state.trees.append(tree)
      return true
    }
    if added { tree[held].treeMarks.append(self) }
  }

  /// With the domains of all its trees held: removes the mark from every
  /// tree that holds it.
  ///
  /// Returns the waiters of the trees left idle: a transaction waiting to adopt
  /// one of them must check again.
  func removeFromTrees(_ held: LinkSection) -> [UnsafeContinuation<ExclusionStep, Never>] {
    var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
    removeFrom(held, take().trees, into: &woken)
    return woken
  }

  /// With the domains of `trees` held: removes the mark from the trees it
  /// was taken from (``take()``), appending the waiters of the trees left idle
  /// to `woken`.
  func removeFrom(_ held: LinkSection, _ trees: SlotList, into woken: inout [UnsafeContinuation<ExclusionStep, Never>])
  {
    for tree in trees {
      tree[held].treeMarks.removeAll { $0 === self }
      if tree[held].treeMarks.isEmpty { tree.wakeAll(held, into: &woken) }
    }
  }
}
