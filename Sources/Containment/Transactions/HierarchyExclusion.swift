import ContainmentLocking
import Synchronization

/// Admission of a transaction into its tree (CONCURRENCY.md, "Hierarchical
/// exclusion").
///
/// Only a *top-level* transaction — one whose task runs no other transaction —
/// waits here, after taking its own queue, until no transaction runs on an
/// ancestor or a descendant of its governor. A nested transaction (started
/// from inside another, rules 3–5 of ``Transaction``) never waits: it is
/// admitted if it overlaps only transactions of its own chain, and otherwise
/// handed back to its chain and dispatched again when the chain's innermost
/// transaction ends (at the latest it becomes top-level). What a waiting
/// transaction waits for is a running transaction, which never waits here
/// again, or a *pending* one (waiting for its descendants), which waits only
/// for running ones: a pending transaction that finds another reason to wait
/// (a tree to adopt is busy) stops being pending first. So no cycle of waits
/// can form.
enum HierarchyExclusion {
  /// Runs `body` with the link domains of `governor`, `adopting`, the
  /// governors of `chain` and every slot `marks` touch held.
  @inline(__always)
  static func withLinks<Result>(
    of governor: Governor, _ adopting: [any ViewController], chain: [TransactionContext] = [],
    touching marks: [TreeBusyMark] = [], _ body: (LinkSection) throws -> Result
  ) rethrows -> Result {
    if chain.isEmpty, marks.isEmpty {
      switch adopting.count {
      case 0: return try TreeLock.withLock(governor.member, body)
      case 1: return try TreeLock.withLock(governor.member, adopting[0].node, body)
      default: break
      }
    }
    let members = [governor.member] + adopting.map { $0.node as any LinkGuarded } + chain.map(\.governor.member)
    return try withLinks(members, touching: marks, body)
  }

  /// Runs `body` with the link domains of `members` and of every slot
  /// `marks` touch (their trees and counted ancestors) held.
  ///
  /// A mark's slots are read before their domains are taken and compared after:
  /// they change only under the domain of one of them, so once the comparison
  /// holds they stay as read; otherwise this takes the domains again.
  static func withLinks<Result>(
    _ members: [any LinkGuarded], touching marks: [TreeBusyMark], _ body: (LinkSection) throws -> Result
  ) rethrows -> Result {
    if marks.isEmpty { return try TreeLock.withLock(members, body) }
    while true {
      let touched = marks.map(\.slots)
      let all = members + touched.joined().map { $0 as any LinkGuarded }
      var result: Result?
      try TreeLock.withLock(all) { held in
        guard zip(marks, touched).allSatisfy({ $0.touches(exactly: $1) }) else { return }
        result = try body(held)
      }
      if let result { return result }
    }
  }

  /// Under the link lock: the slots of the controllers among `adopting` that
  /// are roots of trees of their own (a controller already linked somewhere
  /// is not adopted whole: linking it is refused or is a move).
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

  /// Under the link lock: an adopted tree in which something runs, waits or
  /// is being adopted by another transaction.
  private static func busyAdoptedTree(_ held: LinkSection, _ adopted: [HierarchySlot]) -> HierarchySlot? {
    adopted.first { !$0[held].treeMarks.isEmpty || $0[held].adoptions > 0 }
  }

  /// Under the link lock: makes every admission of `tree` counted in its
  /// ancestors' `activeBelow`, so that the slots tell the whole truth.
  private static func countAncestors(_ held: LinkSection, in tree: HierarchySlot) {
    for mark in tree[held].treeMarks where mark.ancestors == nil {
      guard let governor = mark.governor else { continue }
      let ancestors = governor.ancestorSlots(held)
      for ancestor in ancestors { ancestor[held].activeBelow += 1 }
      mark.ancestors = ancestors
    }
  }

  /// Admits a nested transaction (one started inside `chain`) only if it
  /// overlaps no running transaction but those of its own chain; returns nil
  /// otherwise, without waiting: the caller hands the request back to the
  /// chain, to be dispatched when its innermost transaction ends.
  static func tryEnterNested(_ governor: Governor, adopting: [any ViewController] = [], chain: [TransactionContext])
    -> ExclusionAdmission?
  {
    withLinks(of: governor, adopting, chain: chain) { (held: LinkSection) -> ExclusionAdmission? in
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
  }

  /// Admits a top-level transaction, waiting while it would overlap another.
  ///
  /// If `cancellable` (the requesting task itself waits, R3), throws
  /// `CancellationError` when the task is cancelled before admission; then
  /// nothing was admitted. Requests run on others' behalf (queued jobs, the
  /// second step of a move) are not cancellable: they were promised to run.
  nonisolated(nonsending) static func enter(
    _ governor: Governor, adopting: [any ViewController] = [], cancellable: Bool
  ) async throws
    -> ExclusionAdmission
  {
    // Uncontended (the common case): admit without a continuation.
    if let admission = withLinks(
      of: governor, adopting,
      { (held: LinkSection) -> ExclusionAdmission? in
        let tree = governor.treeSlot(held)
        let adopted = adoptedTrees(held, adopting)
        guard busyAdoptedTree(held, adopted) == nil, tree[held].adoptions == 0 else { return nil }
        if tree[held].treeMarks.isEmpty {
          // Nothing runs or waits anywhere in this tree: no walk to the root.
          return admit(held, governor, tree: tree, ancestors: nil, adopted: adopted)
        }
        if governor.isInDeparture(held) { return nil }
        countAncestors(held, in: tree)
        let ancestors = governor.ancestorSlots(held)
        guard governor.slot[held].activeBelow == 0,
          !ancestors.contains(where: { $0[held].running > 0 || $0[held].pending > 0 })
        else {
          return nil
        }
        return admit(held, governor, tree: tree, ancestors: ancestors, adopted: adopted)
      })
    {
      return admission
    }
    if cancellable { try Task.checkCancellation() }
    let waiter = ExclusionWaiter()
    defer {
      // Cancelled while marked pending: requests below that waited behind
      // this one must check again, or they would wait for a transaction that
      // will never run.
      let woken = withLinks(of: governor, [], touching: [waiter.mark]) {
        (held: LinkSection) -> [UnsafeContinuation<ExclusionStep, Never>] in
        guard waiter.isPending else { return [] }
        return waiter.setPending(held, false, on: governor.slot) + governor.slot.wakeIfIdle(held)
      }
      for continuation in woken { continuation.resume(returning: .retry) }
    }
    while true {
      let step = await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<ExclusionStep, Never>) in
          var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
          var observed: [UnsafeContinuation<Void, Never>] = []
          // A pending waiter's mark may have been carried into trees of
          // other domains (see ``TreeBusyMark``); it may stop being pending.
          let immediate = withLinks(of: governor, adopting, touching: [waiter.mark]) {
            (held: LinkSection) -> ExclusionStep? in
            if waiter.isCancelled { return .cancelled }
            let tree = governor.treeSlot(held)
            let adopted = adoptedTrees(held, adopting)
            // A tree this transaction adopts must be idle, and this one must
            // not be under adoption by another.
            func adoptionBlocker() -> HierarchySlot? {
              busyAdoptedTree(held, adopted) ?? (tree[held].adoptions > 0 ? tree : nil)
            }
            var busy = adoptionBlocker()
            if busy != nil, waiter.isPending {
              // It no longer waits for its descendants: it stops being
              // pending. Its pending mark may have been carried into the very
              // tree it would wait for (that tree left this one meanwhile),
              // and would keep that tree busy for ever.
              woken += waiter.setPending(held, false, on: governor.slot) + governor.slot.wakeIfIdle(held)
              busy = adoptionBlocker()
            }
            if let busy {
              return waiter.register(held, continuation, with: busy, observed: &observed) ? nil : .cancelled
            }
            // A removal that unlinked this subtree (or a part above it) is
            // still delivering its hooks, from a container no longer above it:
            // wait until it leaves this tree (its mark was carried here), not
            // pending meanwhile (its own mark would keep the tree busy).
            if governor.isInDeparture(held), !tree[held].treeMarks.isEmpty {
              if waiter.isPending {
                woken += waiter.setPending(held, false, on: governor.slot) + governor.slot.wakeIfIdle(held)
              }
              if !tree[held].treeMarks.isEmpty {
                return waiter.register(held, continuation, with: tree, observed: &observed) ? nil : .cancelled
              }
            }
            countAncestors(held, in: tree)
            let slot = governor.slot
            let ancestors = governor.ancestorSlots(held)
            if let busy = ancestors.first(where: { $0[held].running > 0 || $0[held].pending > 0 }) {
              return waiter.register(held, continuation, with: busy, observed: &observed) ? nil : .cancelled
            }
            if slot[held].activeBelow > 0 {
              if !waiter.isPending { waiter.setPending(held, true, on: slot, tree: tree) }
              return waiter.register(held, continuation, with: slot, observed: &observed) ? nil : .cancelled
            }
            if waiter.isPending { woken += waiter.setPending(held, false, on: slot) }
            return .admitted(admit(held, governor, tree: tree, ancestors: ancestors, adopted: adopted))
          }
          if let immediate { continuation.resume(returning: immediate) }
          for other in woken { other.resume(returning: .retry) }
          for observer in observed { observer.resume() }
        }
      } onCancel: {
        guard cancellable else { return }
        waiter.cancel()?.resume(returning: .cancelled)
      }
      switch step {
      case .admitted(let admission): return admission
      case .retry: continue
      case .cancelled: throw CancellationError()
      }
    }
  }

  /// Under the link lock, with `ancestors` read in the same critical section
  /// (nil: the tree is idle, they are counted later if needed).
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

  static func leave(_ admission: ExclusionAdmission) {
    let mark = admission.mark
    func end(_ held: LinkSection, taken: (trees: SlotList, ancestors: [HierarchySlot]?)) -> [UnsafeContinuation<
      ExclusionStep, Never
    >] {
      var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
      admission.slot[held].running -= 1
      for root in admission.adopted {
        root[held].adoptions -= 1
        // Transactions of that tree waiting while it was being adopted.
        if root[held].adoptions == 0 { root.wakeAll(held, into: &woken) }
      }
      let ancestors = taken.ancestors ?? []
      // Transactions waiting for a tree this one leaves idle, to adopt it.
      mark.removeFrom(held, taken.trees, into: &woken)
      if admission.slot[held].running == 0 { admission.slot.wakeAll(held, into: &woken) }
      for ancestor in ancestors {
        ancestor[held].activeBelow -= 1
        if ancestor[held].activeBelow == 0 { ancestor.wakeAll(held, into: &woken) }
      }
      return woken
    }
    // The common case: everything it touches is in its governor's domain
    // (holding that lock, the mark's lists cannot change under us).
    let woken =
      TreeLock.withLock(admission.slot) { (held: LinkSection) -> [UnsafeContinuation<ExclusionStep, Never>]? in
        let domain = admission.slot.linkDomain
        guard admission.adopted.allSatisfy({ $0.linkDomain == domain }), let taken = mark.take(ifAllIn: domain) else {
          return nil
        }
        return end(held, taken: taken)
      }
      // Its mark may be in trees of other domains by now (see
      // ``TreeBusyMark``); the trees it adopted are in theirs until linked.
      ?? withLinks([admission.slot] + admission.adopted, touching: [mark]) { held in end(held, taken: mark.take()) }
    // Woken waiters check again (they may find another reason to wait).
    for continuation in woken { continuation.resume(returning: .retry) }
  }
}
