import ContainmentLocking
/// Runs requests as transactions on a governor's queue.
///
/// How a request runs depends on where it comes from (CONCURRENCY.md,
/// "Transactions"):
///
/// 1. From outside any transaction: wait for the queue in FIFO order
///    (cancellable while waiting, R3), run, return the outcome.
/// 2. From the body of the transaction that holds this very queue (not from
///    one of its hooks): it is part of that transaction; run inline. A tree
///    it adopts in which another transaction runs or waits is refused
///    (``ContainmentError/treeBusy(_:)``): it cannot wait.
/// 3. From a hook of a transaction holding this queue: queue it behind
///    (R2, N6) and return a pending handle.
/// 4. From a hook of a transaction on a descendant of this governor, or onto
///    a container that a running transaction is still delivering hooks to
///    (that transaction has delivered a hook to it or to a controller above
///    it, ``Engagement``; or it is appearing, disappearing, or in a removal
///    that has not reached its `didMove(nil)`): defer it until that
///    transaction has released its queue, then dispatch again (R2).
/// 5. From inside any other transaction: run it at once if the queue is free,
///    else queue it and return a pending handle.
///
/// A task inside a transaction therefore never *waits* for a queue, and only
/// tasks holding no queue ever wait: no cycle of waits, no deadlock.
enum Transaction {
  typealias Body<Value> = nonisolated(nonsending) @Sendable (TransactionContext) async throws -> Value

  /// Runs `body` as a transaction on `governor`'s queue; see the type's rules.
  ///
  /// From outside a transaction, throws the body's error; otherwise errors are
  /// reported through the returned handle.
  ///
  /// `adopting` names the controllers the transaction will link into its
  /// tree (a window's new root, a child being added, a controller being
  /// presented): a tree of its own that one of them roots must be idle before
  /// the transaction is admitted, and stays closed to other transactions until
  /// it ends (CONCURRENCY.md, "Hierarchical exclusion").
  @discardableResult
  nonisolated(nonsending) static func perform<Value: Sendable>(
    on governor: Governor,
    adopting: [any ViewController] = [],
    _ body: @escaping Body<Value>
  ) async throws -> TransactionHandle<Value> {
    let current = TransactionContext.current
    let chain = current?.runningChain() ?? []
    guard let innermost = chain.first else {
      if FaultInjection.skipsQueue {
        let id = TransactionID.next()
        let context = TransactionContext(id: id, governor: governor, outer: nil)
        let result = await TransactionContext.$current.withValue(context) {
          await Result(catching: { try await body(context) })
        }
        for dispatch in context.takeDeferred() { await dispatch() }
        if case .failure(let error) = result { throw error }
        return .completed(id: id, result)
      }
      let queue = governor.queue
      try await queue.acquire()
      let id = TransactionID.next()
      // No outer context: those of this task, if any, have all ended (a
      // transaction never runs again), so it can be neither nested nor
      // deferred: it runs here, or leaves cancelled.
      guard
        let result = await run(
          body, on: governor, queue: queue, adopting: adopting, id: id, handle: nil, outer: nil, cancellable: true)
      else { preconditionFailure("a request made outside any transaction runs in its own task") }
      if case .failure(let error) = result { throw error }
      return .completed(id: id, result)
    }
    if !innermost.inHook, innermost.governor.queue === governor.queue {
      // Part of the running transaction: it cannot wait for a tree it
      // adopts, so a busy one is refused.
      let adopted = adopting.isEmpty ? [] : try HierarchyExclusion.adoptInline(adopting, in: innermost)
      let result = await Result(catching: { try await body(innermost) })
      HierarchyExclusion.endInlineAdoption(adopted)
      if case .failure(let error) = result { throw error }
      return .completed(id: innermost.id, result)
    }
    let handle = TransactionHandle<Value>(id: .next(), queuedBehind: chain.map(\.id), cancellableWhileQueued: true)
    await dispatch(body, on: governor, adopting: adopting, handle: handle, chain: chain)
    return handle
  }

  /// Non-blocking dispatch (rules 3–5).
  ///
  /// Never waits for a queue.
  nonisolated(nonsending) static func dispatch<Value: Sendable>(
    _ body: @escaping Body<Value>,
    on governor: Governor,
    adopting: [any ViewController] = [],
    handle: TransactionHandle<Value>,
    chain: [TransactionContext]
  ) async {
    let queue = governor.queue
    if chain.contains(where: { $0.governor.queue === queue }) {
      await queue.post {
        await run(
          body, on: governor, adopting: adopting, id: handle.id, handle: handle, outer: TransactionContext.current,
          releasing: false)
      }
      return
    }
    // Outside any transaction (an empty chain) there is nothing to defer behind.
    let below =
      chain.isEmpty
      ? nil
      : TreeLock.withLock([governor.member] + chain.map(\.governor.member)) {
        (held: LinkSection) -> TransactionContext? in
        if let inside = chain.first(where: { governor.isAncestorOrSelf(held, of: $0.governor) }) { return inside }
        if let engaged = governor.engagingTransaction(held, in: chain) { return engaged }
        return governor.isMidChange(held) ? chain.first : nil
      }
    if let below {
      let deferred = below.deferUntilEnd(onto: [governor]) {
        let chain = TransactionContext.current?.runningChain() ?? []
        await dispatch(body, on: governor, adopting: adopting, handle: handle, chain: chain)
      }
      if deferred { return }
      // `below` ended since the chain was read: dispatch again with the
      // chain as it is now.
      let chain = TransactionContext.current?.runningChain() ?? []
      return await dispatch(body, on: governor, adopting: adopting, handle: handle, chain: chain)
    }
    if queue.tryAcquire() {
      await run(
        body, on: governor, adopting: adopting, id: handle.id, handle: handle, outer: TransactionContext.current)
    } else {
      await queue.post {
        await run(
          body, on: governor, adopting: adopting, id: handle.id, handle: handle, outer: TransactionContext.current,
          releasing: false)
      }
    }
  }

  /// Runs one transaction on a queue the caller already holds, completes the
  /// handle (if any) and returns the outcome (nil if it did not run here: it
  /// left unstarted or was deferred), releases the queue (draining queued jobs) unless it runs as one
  /// of those jobs (`releasing: false`: the draining task releases), and
  /// dispatches what the transaction deferred.
  ///
  /// Only a requester running its own request (`cancellable`) may be cancelled
  /// while waiting for admission. `queue`, if given, is `governor.queue`.
  @discardableResult
  nonisolated(nonsending) static func run<Value: Sendable>(
    _ body: @escaping Body<Value>,
    on governor: Governor,
    queue knownQueue: TransactionQueue? = nil,
    adopting: [any ViewController] = [],
    id: TransactionID,
    handle: TransactionHandle<Value>?,
    outer: TransactionContext?,
    releasing: Bool = true,
    cancellable: Bool = false
  ) async -> Result<Value, any Error>? {
    if !releasing, let handle, handle.cancellableWhileQueued, Task.isCancelled {
      // A hook's request reached by a draining task that was cancelled: it
      // leaves unstarted (R3), so a hook that requests again from every
      // hook cannot keep a cancelled task draining forever.
      handle.complete(.failure(CancellationError()))
      return nil
    }
    // `governor.queue` reads the controller's node and its lazy queue.
    let queue = knownQueue ?? governor.queue
    queue.setCurrent(id)
    let chain = outer?.runningChain() ?? []
    let admission: ExclusionAdmission
    if chain.isEmpty {
      do {
        admission = try await HierarchyExclusion.enter(governor, adopting: adopting, cancellable: cancellable)
      } catch {
        // Cancelled before admission: nothing ran, nothing changed (R3).
        queue.setCurrent(nil)
        handle?.complete(.failure(error))
        if releasing { await queue.release() }
        return .failure(error)
      }
    } else if let nested = HierarchyExclusion.tryEnterNested(governor, adopting: adopting, chain: chain) {
      admission = nested
    } else {
      // It would overlap a transaction outside its chain: dispatch it again
      // when the chain's innermost transaction ends, and give the queue back
      // (deferred first, so that its tree never looks idle in between).
      // Only a request made inside a transaction (which has a handle) has a chain.
      guard let handle else { preconditionFailure("a nested request without a handle") }
      let deferred = chain[0].deferUntilEnd(onto: [governor]) {
        await dispatch(
          body, on: governor, adopting: adopting, handle: handle,
          chain: TransactionContext.current?.runningChain() ?? [])
      }
      if !deferred {
        // The chain's transaction ended meanwhile: dispatch again now,
        // still holding the queue (queued behind this task, it is drained by
        // the release below or by the task draining this one).
        await dispatch(
          body, on: governor, adopting: adopting, handle: handle,
          chain: TransactionContext.current?.runningChain() ?? [])
      }
      queue.setCurrent(nil)
      if releasing { await queue.release() }
      return nil
    }
    let context = TransactionContext(id: id, governor: governor, outer: outer)
    // The task is bound to the context, which bound means "inside one of its
    // hooks": a body is the runtime's own code, which passes the context
    // explicitly, and every hook it delivers with it needs no binding (nor
    // a read of the binding). User code that runs as the body (a scope's
    // closure, animations) is bound to a body context
    // (``TransactionContext/runAsBody(_:)``).
    let result = await TransactionContext.$current.withValue(context) {
      await Result(catching: { try await body(context) })
    }
    HierarchyExclusion.leave(admission)
    handle?.complete(result)
    // Releasing the queue also clears its current transaction. From then on
    // no task finds this one running, so what it deferred is taken after
    // that, once and for all: a deferral that comes later still (a task
    // that found it running just before) is refused, and its requester
    // dispatches the request itself.
    if releasing { await queue.release() } else { queue.setCurrent(nil) }
    // Each counted by its target since it was deferred (a tree does not look
    // idle while a request it deferred is about to take a queue).
    for dispatch in context.takeDeferred() { await dispatch() }
    return result
  }
}

extension Result where Failure == any Error {
  /// Runs `body` where the caller runs (no executor switch on the way in or out).
  nonisolated(nonsending) init(catching body: nonisolated(nonsending) () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
