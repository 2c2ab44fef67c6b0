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
///
/// The decisions are ``ExclusionMachine``'s; this type takes the link
/// domains each needs, parks a waiting task on the slot it is told, and
/// resumes the tasks a decision wakes once the section has ended.
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

  /// Admits a nested transaction (one started inside `chain`) only if it
  /// overlaps no running transaction but those of its own chain; returns nil
  /// otherwise, without waiting: the caller hands the request back to the
  /// chain, to be dispatched when its innermost transaction ends.
  static func tryEnterNested(_ governor: Governor, adopting: [any ViewController] = [], chain: [TransactionContext])
    -> ExclusionAdmission?
  {
    withLinks(of: governor, adopting, chain: chain) { held in
      ExclusionMachine.enterNested(held, governor, adopting: adopting, chain: chain)
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
    atOnce: while true {
      switch withLinks(
        of: governor, adopting, { held in ExclusionMachine.enterAtOnce(held, governor, adopting: adopting) })
      {
      case .admitted(let admission): return admission
      case .separateFirst: governor.separateTreeIfItLeftAnother()
      case .mustWait: break atOnce
      }
    }
    if cancellable { try Task.checkCancellation() }
    let waiter = ExclusionWaiter()
    defer {
      // Cancelled while marked pending: requests below that waited behind
      // this one must check again, or they would wait for a transaction that
      // will never run.
      let woken = withLinks(of: governor, [], touching: [waiter.mark]) { held -> ExclusionMachine.Woken in
        waiter.isPending ? ExclusionMachine.stopPending(held, waiter, on: governor) : []
      }
      for continuation in woken { continuation.resume(returning: .retry) }
    }
    while true {
      let step = await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<ExclusionStep, Never>) in
          var woken: ExclusionMachine.Woken = []
          var observed: [UnsafeContinuation<Void, Never>] = []
          // A pending waiter's mark may have been carried into trees of
          // other domains (see ``TreeBusyMark``); it may stop being pending.
          let immediate = withLinks(of: governor, adopting, touching: [waiter.mark]) {
            (held: LinkSection) -> ExclusionStep? in
            if waiter.isCancelled { return .cancelled }
            switch ExclusionMachine.enter(held, governor, adopting: adopting, waiter: waiter, woken: &woken) {
            case .admitted(let admission):
              return .admitted(admission)
            case .wait(on: let slot):
              return waiter.register(held, continuation, with: slot, observed: &observed) ? nil : .cancelled
            }
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

  /// A request made from `context`'s body, which runs inline, that adopts
  /// `adopting`: refuses a tree in which another transaction runs, waits or
  /// adopts with ``ContainmentError/treeBusy(_:)``, and otherwise keeps the
  /// trees it adopts closed to other transactions until
  /// ``endInlineAdoption(_:)``.
  static func adoptInline(_ adopting: [any ViewController], in context: TransactionContext) throws
    -> [HierarchySlot]
  {
    let adoption = withLinks(of: context.governor, adopting) { held in
      ExclusionMachine.adoptInline(held, adopting, by: context.governor)
    }
    switch adoption {
    case .adopted(let roots): return roots
    case .busy(let controller): throw ContainmentError.treeBusy(controller.node.id)
    }
  }

  /// Ends an inline request's adoption of `roots`: the waiters it held back
  /// check again.
  static func endInlineAdoption(_ roots: [HierarchySlot]) {
    if roots.isEmpty { return }
    let woken = TreeLock.withLock(roots) { held in ExclusionMachine.endInlineAdoption(held, roots) }
    for continuation in woken { continuation.resume(returning: .retry) }
  }

  /// Ends an admission: every waiter it leaves free to go checks again.
  static func leave(_ admission: ExclusionAdmission) {
    let mark = admission.mark
    // The common case: everything it touches is in its governor's domain
    // (holding that lock, the mark's lists cannot change under us).
    let woken =
      TreeLock.withLock(admission.slot) { (held: LinkSection) -> ExclusionMachine.Woken? in
        let domain = admission.slot.linkDomain
        guard admission.adopted.allSatisfy({ $0.linkDomain == domain }), let taken = mark.take(ifAllIn: domain) else {
          return nil
        }
        return ExclusionMachine.leave(held, admission, taken: taken)
      }
      // Its mark may be in trees of other domains by now (see
      // ``TreeBusyMark``); the trees it adopted are in theirs until linked.
      ?? withLinks([admission.slot] + admission.adopted, touching: [mark]) { held in
        ExclusionMachine.leave(held, admission, taken: mark.take())
      }
    // Woken waiters check again (they may find another reason to wait).
    for continuation in woken { continuation.resume(returning: .retry) }
  }
}
