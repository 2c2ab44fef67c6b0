import ContainmentLocking

/// The decisions of hierarchical exclusion (CONCURRENCY.md, "Hierarchical
/// exclusion"), each made inside one link section that holds the domains of
/// everything it reads.
///
/// A decision reads and updates the slots' counts and marks and says what
/// happens next: admitted, or which slot to wait on. None suspends, registers
/// a continuation or resumes one. The waiters a decision wakes are returned,
/// and ``HierarchyExclusion`` — which takes the locks, parks the waiting task
/// and resumes — resumes them once the section has ended.
enum ExclusionMachine {
  /// Continuations of waiters to resume, with ``ExclusionStep/retry``, after
  /// the section.
  typealias Woken = [UnsafeContinuation<ExclusionStep, Never>]

  /// What a waiting top-level request does next.
  enum Entry {
    /// It runs.
    case admitted(ExclusionAdmission)
    /// It waits until `slot` changes, then asks again.
    case wait(on: HierarchySlot)
  }

  /// What an uncontended top-level request does.
  enum AtOnce {
    /// It runs.
    case admitted(ExclusionAdmission)
    /// It must wait: it asks again with a waiter
    /// (``enter(_:_:adopting:waiter:woken:)``).
    case mustWait
    /// Its tree is idle and left another tree: it gives the tree a link
    /// lock of its own (``ControllerNode/separateTreeIfItLeftAnother()``),
    /// then asks again.
    case separateFirst
  }

  /// A top-level request, uncontended: admitted at once if nothing runs or
  /// waits where it would overlap.
  static func enterAtOnce(_ held: LinkSection, _ governor: Governor, adopting: [any ViewController]) -> AtOnce {
    let tree = governor.treeSlot(held)
    let adopted = adoptedTrees(held, adopting)
    guard busyAdoptedTree(held, adopted) == nil, tree[held].adoptions == 0 else { return .mustWait }
    if tree[held].treeMarks.isEmpty {
      if tree[held].leftATree { return .separateFirst }
      // Nothing runs or waits anywhere in this tree: no walk to the root.
      return .admitted(admit(held, governor, tree: tree, ancestors: nil, adopted: adopted))
    }
    if governor.isInDeparture(held) { return .mustWait }
    countAncestors(held, in: tree)
    let ancestors = governor.ancestorSlots(held)
    guard governor.slot[held].activeBelow == 0,
      !ancestors.contains(where: { $0[held].running > 0 || $0[held].pending > 0 })
    else {
      return .mustWait
    }
    return .admitted(admit(held, governor, tree: tree, ancestors: ancestors, adopted: adopted))
  }

  /// A top-level request that waits (its `waiter`): admitted, or told which
  /// slot to wait on.
  ///
  /// On the way it stops being pending when it waits for something other
  /// than its descendants, and becomes pending when it waits for them (then
  /// new top-level requests below wait behind it); waiters this leaves free
  /// to go are appended to `woken`.
  static func enter(
    _ held: LinkSection, _ governor: Governor, adopting: [any ViewController], waiter: ExclusionWaiter,
    woken: inout Woken
  ) -> Entry {
    let tree = governor.treeSlot(held)
    let adopted = adoptedTrees(held, adopting)
    // A tree this transaction adopts must be idle, and this one must not be
    // under adoption by another.
    func adoptionBlocker() -> HierarchySlot? {
      busyAdoptedTree(held, adopted) ?? (tree[held].adoptions > 0 ? tree : nil)
    }
    var busy = adoptionBlocker()
    if busy != nil, waiter.isPending {
      // It no longer waits for its descendants: it stops being pending. Its
      // pending mark may have been carried into the very tree it would wait
      // for (that tree left this one meanwhile), and would keep that tree
      // busy for ever.
      woken += stopPending(held, waiter, on: governor)
      busy = adoptionBlocker()
    }
    if let busy { return .wait(on: busy) }
    // A removal that unlinked this subtree (or a part above it) is still
    // delivering its hooks, from a container no longer above it: wait until
    // it leaves this tree (its mark was carried here), not pending meanwhile
    // (its own mark would keep the tree busy).
    if governor.isInDeparture(held), !tree[held].treeMarks.isEmpty {
      if waiter.isPending { woken += stopPending(held, waiter, on: governor) }
      if !tree[held].treeMarks.isEmpty { return .wait(on: tree) }
    }
    countAncestors(held, in: tree)
    let slot = governor.slot
    let ancestors = governor.ancestorSlots(held)
    if let busy = ancestors.first(where: { $0[held].running > 0 || $0[held].pending > 0 }) {
      return .wait(on: busy)
    }
    if slot[held].activeBelow > 0 {
      if !waiter.isPending { waiter.setPending(held, true, on: slot, tree: tree) }
      return .wait(on: slot)
    }
    // Admitted: its slot is running now, so no waiter there is woken.
    if waiter.isPending { woken += waiter.setPending(held, false, on: slot) }
    return .admitted(admit(held, governor, tree: tree, ancestors: ancestors, adopted: adopted))
  }

  /// A pending `waiter` of `governor` stops being pending (it waits for
  /// something else, or it gave up): the requests below that waited behind
  /// it, and those of trees its mark leaves idle, are returned.
  static func stopPending(_ held: LinkSection, _ waiter: ExclusionWaiter, on governor: Governor) -> Woken {
    waiter.setPending(held, false, on: governor.slot) + governor.slot.wakeIfIdle(held)
  }

  /// A nested request (started inside `chain`): admitted only if it
  /// overlaps no running transaction but those of its own chain; nil
  /// otherwise (it never waits here: its chain dispatches it again).
  static func enterNested(
    _ held: LinkSection, _ governor: Governor, adopting: [any ViewController], chain: [TransactionContext]
  ) -> ExclusionAdmission? {
    let adopted = adoptedTrees(held, adopting)
    if busyAdoptedTree(held, adopted) != nil || governor.treeSlot(held)[held].adoptions > 0 { return nil }
    countAncestors(held, in: governor.treeSlot(held))
    let slot = governor.slot
    let ancestors = governor.ancestorSlots(held)
    for ancestor in ancestors {
      let mine = chain.count { $0.governor.slot === ancestor }
      if ancestor[held].running > mine { return nil }
    }
    let mineBelow = chain.count { $0.governor.slot !== slot && governor.isAncestorOrSelf(held, of: $0.governor) }
    if slot[held].activeBelow > mineBelow { return nil }
    return admit(held, governor, tree: governor.treeSlot(held), ancestors: ancestors, adopted: adopted)
  }

  /// What a request made from a transaction's body, which runs inline as
  /// part of that transaction (rule 2 of ``Transaction``), may adopt.
  enum InlineAdoption {
    /// The root slots of the trees it adopts, now counted as adopted.
    case adopted([HierarchySlot])
    /// A tree it would adopt, rooted at this controller, in which another
    /// transaction runs, waits or adopts.
    case busy(any ViewController)
  }

  /// A request made from the body of the transaction running on `governor`
  /// that adopts `adopting`: each tree it adopts must hold no transaction
  /// but that one (none waiting, running or adopting) — an inline request
  /// cannot wait for it (the transaction holds its queue, and a tree it
  /// waited for could be waiting for it) — and is counted as adopted until
  /// the request ends (``endInlineAdoption(_:_:)``), so that none is
  /// admitted there before it is linked.
  ///
  /// The running transaction's own mark is the one whose governor is
  /// `governor` (its queue runs one transaction at a time, and a waiting
  /// one's mark has no governor). It may be in that tree: the body removed
  /// the controller earlier and now adds it back. A transaction whose body
  /// runs user code (a scope, a transition, a batch) adopts nothing itself,
  /// so any adoption of the tree is another's.
  static func adoptInline(
    _ held: LinkSection, _ adopting: [any ViewController], by governor: Governor
  ) -> InlineAdoption {
    let own = governor.slot
    var roots: [HierarchySlot] = []
    for controller in adopting {
      guard let root = adoptedTrees(held, [controller]).first else { continue }
      let foreignMark = root[held].treeMarks.contains { mark in mark.governor.map { $0.slot !== own } ?? true }
      if foreignMark || root[held].adoptions > 0 { return .busy(controller) }
      roots.append(root)
    }
    for root in roots { root[held].adoptions += 1 }
    return .adopted(roots)
  }

  /// An inline request that adopted `roots` ends: returns the waiters of
  /// every one it leaves unadopted.
  static func endInlineAdoption(_ held: LinkSection, _ roots: [HierarchySlot]) -> Woken {
    var woken: Woken = []
    for root in roots {
      root[held].adoptions -= 1
      if root[held].adoptions == 0 { root.wakeAll(held, into: &woken) }
    }
    return woken
  }

  /// An admitted transaction ends, its mark's trees and ancestors `taken`
  /// (``TreeBusyMark/take()``): returns the waiters of every slot it leaves
  /// idle.
  static func leave(
    _ held: LinkSection, _ admission: ExclusionAdmission, taken: (trees: SlotList, ancestors: [HierarchySlot]?)
  ) -> Woken {
    var woken: Woken = []
    admission.slot[held].running -= 1
    for root in admission.adopted {
      root[held].adoptions -= 1
      // Transactions of that tree waiting while it was being adopted.
      if root[held].adoptions == 0 { root.wakeAll(held, into: &woken) }
    }
    // Transactions waiting for a tree this one leaves idle, to adopt it.
    admission.mark.removeFrom(held, taken.trees, into: &woken)
    if admission.slot[held].running == 0 { admission.slot.wakeAll(held, into: &woken) }
    for ancestor in taken.ancestors ?? [] {
      ancestor[held].activeBelow -= 1
      if ancestor[held].activeBelow == 0 { ancestor.wakeAll(held, into: &woken) }
    }
    return woken
  }

  /// The slots of the controllers among `adopting` that are roots of trees
  /// of their own (a controller already linked somewhere is not adopted
  /// whole: linking it is refused or is a move).
  static func adoptedTrees(_ held: LinkSection, _ adopting: [any ViewController]) -> [HierarchySlot] {
    adopting.compactMap { controller in
      let node = controller.node
      // A controller still in a removal, or torn down, is refused by the
      // transaction's own checks: no reason to wait for its tree.
      guard node[held].parent == nil, node[held].presenting == nil, node[held].window == nil,
        node[held].eventRouting.departure == nil, !node[held].supervision.isTornDown
      else { return nil }
      return node.hierarchy
    }
  }

  /// An adopted tree in which something runs, waits or is being adopted by
  /// another transaction.
  private static func busyAdoptedTree(_ held: LinkSection, _ adopted: [HierarchySlot]) -> HierarchySlot? {
    adopted.first { !$0[held].treeMarks.isEmpty || $0[held].adoptions > 0 }
  }

  /// Makes every admission of `tree` counted in its ancestors' `activeBelow`,
  /// so that the slots tell the whole truth.
  private static func countAncestors(_ held: LinkSection, in tree: HierarchySlot) {
    tree.countAdmissions(held)
  }

  /// Admits, with `ancestors` read in the same section (nil: the tree is
  /// idle, they are counted later if needed).
  private static func admit(
    _ held: LinkSection, _ governor: Governor, tree: HierarchySlot, ancestors: [HierarchySlot]?,
    adopted: [HierarchySlot]
  ) -> ExclusionAdmission {
    let slot = governor.slot
    slot[held].running += 1
    if let ancestors {
      for ancestor in ancestors { ancestor[held].activeBelow += 1 }
    }
    let mark = TreeBusyMark(governor: governor, ancestors: ancestors, tree: tree)
    tree[held].treeMarks.append(mark)
    for root in adopted { root[held].adoptions += 1 }
    return ExclusionAdmission(slot: slot, mark: mark, adopted: adopted)
  }
}
