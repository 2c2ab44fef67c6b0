/// Per-governor bookkeeping for hierarchical exclusion; guarded by the link lock.
///
/// Transactions on one container are serialized by its FIFO queue (SPEC R1).
/// Transactions on *different* containers of one tree must not overlap either
/// when one container is an ancestor of the other: an ancestor's appearance
/// pass over a subtree would otherwise interleave its decisions and hooks with
/// a descendant's transition half-way through, and a controller's hook
/// sequence would match no sequential order (SPEC R4). Siblings' subtrees are
/// disjoint, so their transactions still run in parallel, as do independent
/// trees (SPEC R5).
final class HierarchySlot: @unchecked Sendable {
  /// Transactions running on this governor (nested ones included).
  var running = 0
  /// Transactions running on strict descendants.
  var activeBelow = 0
  /// Top-level transactions here waiting for their descendants to finish:
  /// new top-level transactions below wait behind them (no starvation).
  var pending = 0
  /// Tasks waiting for this slot to change.
  var waiters: [ExclusionWaiter] = []
}

/// What a waiting top-level transaction is told when it resumes.
enum ExclusionStep: Sendable {
  case admitted(HierarchyExclusion.Admission)
  /// Something changed: check again.
  case retry
  case cancelled
}

/// One top-level transaction waiting for admission; guarded by the link lock.
/// Its state lives here, not in the waiting frame, so that nothing but the
/// resume value crosses from the resuming thread to the resumed task.
final class ExclusionWaiter: @unchecked Sendable {
  var continuation: UnsafeContinuation<ExclusionStep, Never>?
  /// The slot it is registered with, while registered.
  var slot: HierarchySlot?
  var isCancelled = false
  /// True while it has marked its own slot `pending` (waiting for descendants).
  var isPending = false
}

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
/// again; so no cycle of waits can form.
enum HierarchyExclusion {
  /// What `leave` must undo.
  struct Admission: Sendable {
    let slot: HierarchySlot
    let ancestors: [HierarchySlot]
  }

  /// Admits a nested transaction (one started inside `chain`) only if it
  /// overlaps no running transaction but those of its own chain; returns nil
  /// otherwise, without waiting: the caller hands the request back to the
  /// chain, to be dispatched when its innermost transaction ends.
  static func tryEnterNested(_ governor: Governor, chain: [TransactionContext]) -> Admission? {
    TreeLock.withLock {
      let slot = governor._slot
      let ancestors = governor._ancestorSlots()
      for ancestor in ancestors {
        let mine = chain.count { $0.governor._slot === ancestor }
        if ancestor.running > mine { return nil }
      }
      let mineBelow = chain.count { $0.governor._slot !== slot && governor._isAncestorOrSelf(of: $0.governor) }
      if slot.activeBelow > mineBelow { return nil }
      return admit(governor, ancestors: ancestors)
    }
  }

  /// Admits a top-level transaction, waiting while it would overlap another.
  /// If `cancellable` (the requesting task itself waits, SPEC R3), throws
  /// `CancellationError` when the task is cancelled before admission; then
  /// nothing was admitted. Requests run on others' behalf (queued jobs, the
  /// second step of a move) are not cancellable: they were promised to run.
  static func enter(_ governor: Governor, cancellable: Bool) async throws -> Admission {
    // Uncontended (the common case): admit without a continuation.
    if let admission = TreeLock.withLock({ () -> Admission? in
      let ancestors = governor._ancestorSlots()
      guard governor._slot.activeBelow == 0, !ancestors.contains(where: { $0.running > 0 || $0.pending > 0 }) else {
        return nil
      }
      return admit(governor, ancestors: ancestors)
    }) {
      return admission
    }
    if cancellable { try Task.checkCancellation() }
    let waiter = ExclusionWaiter()
    defer {
      // Cancelled while marked pending: requests below that waited behind
      // this one must check again, or they would wait for a transaction that
      // will never run.
      let woken = TreeLock.withLock { () -> [UnsafeContinuation<ExclusionStep, Never>] in
        guard waiter.isPending else { return [] }
        waiter.isPending = false
        let slot = governor._slot
        slot.pending -= 1
        return slot.pending == 0 && slot.running == 0 ? slot._wakeAll() : []
      }
      for continuation in woken { continuation.resume(returning: .retry) }
    }
    while true {
      let step = await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<ExclusionStep, Never>) in
          let immediate = TreeLock.withLock { () -> ExclusionStep? in
            if waiter.isCancelled { return .cancelled }
            let slot = governor._slot
            let ancestors = governor._ancestorSlots()
            if let busy = ancestors.first(where: { $0.running > 0 || $0.pending > 0 }) {
              waiter.register(continuation, with: busy)
              return nil
            }
            if slot.activeBelow > 0 {
              if !waiter.isPending {
                waiter.isPending = true
                slot.pending += 1
              }
              waiter.register(continuation, with: slot)
              return nil
            }
            if waiter.isPending {
              waiter.isPending = false
              slot.pending -= 1
            }
            return .admitted(admit(governor, ancestors: ancestors))
          }
          if let immediate { continuation.resume(returning: immediate) }
        }
      } onCancel: {
        guard cancellable else { return }
        let continuation = TreeLock.withLock { () -> UnsafeContinuation<ExclusionStep, Never>? in
          waiter.isCancelled = true
          return waiter.unregister()
        }
        continuation?.resume(returning: .cancelled)
      }
      switch step {
      case .admitted(let admission): return admission
      case .retry: continue
      case .cancelled: throw CancellationError()
      }
    }
  }

  /// Under the link lock, with `ancestors` read in the same critical section.
  private static func admit(_ governor: Governor, ancestors: [HierarchySlot]) -> Admission {
    let slot = governor._slot
    slot.running += 1
    for ancestor in ancestors { ancestor.activeBelow += 1 }
    return Admission(slot: slot, ancestors: ancestors)
  }

  static func leave(_ admission: Admission) {
    let woken = TreeLock.withLock { () -> [UnsafeContinuation<ExclusionStep, Never>] in
      var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
      admission.slot.running -= 1
      if admission.slot.running == 0 { woken += admission.slot._wakeAll() }
      for ancestor in admission.ancestors {
        ancestor.activeBelow -= 1
        if ancestor.activeBelow == 0 { woken += ancestor._wakeAll() }
      }
      return woken
    }
    // Woken waiters check again (they may find another reason to wait).
    for continuation in woken { continuation.resume(returning: .retry) }
  }
}

extension Governor {
  /// Under the link lock.
  var _slot: HierarchySlot {
    switch self {
    case .controller(let controller): controller.node.hierarchy
    case .window(let window): window.hierarchy
    }
  }

  /// Under the link lock: the slots of every ancestor, nearest first, up to
  /// the hosting window.
  func _ancestorSlots() -> [HierarchySlot] {
    guard case .controller(let controller) = self else { return [] }
    var slots: [HierarchySlot] = []
    var node = controller.node
    while let parent = node._parent?.node {
      slots.append(parent.hierarchy)
      node = parent
    }
    if let window = node._window { slots.append(window.hierarchy) }
    return slots
  }
}

extension HierarchySlot {
  /// Under the link lock: unregisters every waiter, returning their continuations.
  func _wakeAll() -> [UnsafeContinuation<ExclusionStep, Never>] {
    let all = waiters
    waiters.removeAll()
    return all.compactMap { waiter in
      waiter.slot = nil
      defer { waiter.continuation = nil }
      return waiter.continuation
    }
  }
}

extension ExclusionWaiter {
  /// Under the link lock.
  func register(_ continuation: UnsafeContinuation<ExclusionStep, Never>, with slot: HierarchySlot) {
    self.continuation = continuation
    self.slot = slot
    slot.waiters.append(self)
  }

  /// Under the link lock: removes this waiter from its slot, returning its
  /// continuation if it was still registered.
  func unregister() -> UnsafeContinuation<ExclusionStep, Never>? {
    slot?.waiters.removeAll { $0 === self }
    slot = nil
    defer { continuation = nil }
    return continuation
  }
}
