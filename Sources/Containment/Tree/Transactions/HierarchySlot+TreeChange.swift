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
}
