import ContainmentLocking

extension HierarchySlot {
  /// Under the link lock, *before* a link change moves a subtree from the
  /// tree of slot `old` to the tree of slot `new` (a root joins a parent or
  /// a window, a child or a window's root leaves): counts the ancestors of
  /// `old`'s admissions with the links they were admitted under, and makes
  /// `new` busy while they run.
  ///
  /// O(1) when `old`'s tree is idle.
  ///
  /// A mark whose governor keeps its ancestors through the change is left
  /// to be counted when its tree needs the counts: a governor outside
  /// `old`'s tree (a transaction adopting that tree into its own), or, when
  /// the subtree of `leaving` leaves `old`'s tree, the controller it leaves
  /// (the parent removing a child, the presenter ending a presentation). So
  /// presenting, adding, dismissing or removing at any depth does not walk
  /// to the root.
  static func treeChanged(
    _ held: LinkSection, from old: HierarchySlot, to new: HierarchySlot, leaving: ControllerNode? = nil
  ) {
    guard old !== new, !old[held].treeMarks.isEmpty else { return }
    var left: ControllerNode?
    if let leaving {
      // Field by field: `leaving?[held].treeParent` copied the whole links
      // struct (a retain and a release of each of its references).
      if let parent = leaving[held].parentLink?.value {
        left = parent.node
      } else {
        left = leaving[held].presentation.value.presenting?.node
      }
    }
    for mark in old[held].treeMarks where mark.ancestors == nil {
      guard let governor = mark.governor, governor.treeSlot(held) === old else { continue }
      if let left, case .controller(let controller) = governor, controller.node === left { continue }
      let ancestors = governor.ancestorSlots(held)
      for ancestor in ancestors { ancestor[held].activeBelow += 1 }
      mark.ancestors = ancestors
    }
    for mark in old[held].treeMarks { mark.add(held, to: new) }
  }

  /// Under the link lock: counts every admission this slot holds whose
  /// ancestors are not counted yet in their `activeBelow`, with the links
  /// its governor has now.
  ///
  /// An uncounted mark's governor is under the lock of every tree slot that
  /// holds the mark: a subtree that leaves keeps its lock, so its marks stay
  /// under their governors' lock; a subtree that joins another tree carries
  /// its marks there in the section that moves it to that tree's lock, and
  /// counts them before it moves (``countBeforeMoving(_:)``). So the walk
  /// reads links this section holds.
  func countAdmissions(_ held: LinkSection) {
    for mark in self[held].treeMarks where mark.ancestors == nil {
      guard let governor = mark.governor else { continue }
      let ancestors = governor.ancestorSlots(held)
      for ancestor in ancestors { ancestor[held].activeBelow += 1 }
      mark.ancestors = ancestors
    }
  }

  /// Under the locks of a join (``TreeLock/join(_:_:into:)``: the domain this
  /// slot leaves and the one it joins), before the slot moves: counts its
  /// admissions while their governors' links are still under a held lock.
  ///
  /// A mark carried here when this subtree left its parent (the parent's own
  /// transaction, left uncounted by ``treeChanged(_:from:to:leaving:)``) has
  /// its governor in the tree left behind, which stays under the old lock:
  /// counted later, under the new lock, its walk would read and write that
  /// tree's slots without their lock, and a lost update of an `activeBelow`
  /// would keep a whole tree waiting for ever.
  func countBeforeMoving(_ held: LinkSection) {
    if self[held].treeMarks.isEmpty { return }
    countAdmissions(held)
  }
}
