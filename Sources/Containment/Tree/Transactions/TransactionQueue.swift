import ContainmentLocking
/// One container's FIFO queue of transactions (R1).
///
/// - Ordering: requests take their place synchronously, at the moment they are
///   made, and run strictly one at a time in that order, even across `await`s.
/// - Waiting: only tasks *outside* any transaction wait here (`acquire()`); a
///   request made from inside a transaction is either run inline or posted as
///   a job (see `TransactionContext`), so no transaction ever waits on a queue
///   and no cycle of waits can form.
/// - Cancellation: a waiter cancelled before its turn leaves with
///   `CancellationError` and changes nothing (R3), whether the
///   cancellation arrives before or after it registered.
/// - Continuations are resumed only after the lock is released.
final class TransactionQueue: Sendable {
  typealias Job = @Sendable () async -> Void
  private typealias Machine = TransactionQueueStateMachine<UnsafeContinuation<Void, any Error>, Job>

  private struct State {
    var machine = Machine()
    /// The transaction currently running, if any: lets a task-local context
    /// tell whether it still owns this queue.
    var current: TransactionID?
    /// Tests waiting for requests to queue up (`pending(atLeast:)`).
    var observers = CountObservers()

    /// Removes and returns the observers the current queue length satisfies.
    mutating func takeSatisfiedObservers() -> [UnsafeContinuation<Void, Never>] {
      observers.takeSatisfied(by: machine.pendingCount)
    }
  }

  private let state = Locked(State())
  /// Its owner's exclusion slot, for the owner's link domain: waiters for an
  /// idle tree are checked only if they are in the tree whose queue freed.
  private let owner: HierarchySlot

  init(owner: HierarchySlot) { self.owner = owner }

  /// The transaction currently holding the queue.
  var currentTransaction: TransactionID? { state.withLock { $0.current } }

  var isHeld: Bool { state.withLock { $0.machine.isHeld } }

  var pendingCount: Int { state.withLock { $0.machine.pendingCount } }

  func setCurrent(_ id: TransactionID?) {
    state.withLock { $0.current = id }
  }

  /// True if `id` is the transaction holding this queue right now.
  func isCurrent(_ id: TransactionID) -> Bool { state.withLock { $0.current == id } }

  /// Waits for this queue in FIFO order.
  ///
  /// On return the caller holds it and must call `release()`. Throws
  /// `CancellationError` if the task is cancelled before its turn; then nothing
  /// was taken.
  ///
  /// Inlined: uncontended, it takes the free queue from the caller's frame,
  /// with no frame of its own.
  @inline(__always)
  nonisolated(nonsending) func acquire() async throws {
    // Uncontended: take the free queue without suspending (a free queue has
    // nothing pending, so this keeps FIFO order).
    try Task.checkCancellation()
    if tryAcquire() { return }
    try await acquireWaiting()
  }

  /// ``acquire()`` once the queue was found held: waits for its turn.
  private nonisolated(nonsending) func acquireWaiting() async throws {
    let id = state.withLock { $0.machine.makeWaiterID() }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let (action, observers) = state.withLock { state in
          (state.machine.acquire(id: id, continuation: continuation), state.takeSatisfiedObservers())
        }
        for observer in observers { observer.resume() }
        switch action {
        case .granted: continuation.resume()
        case .suspended: break
        case .cancelled: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let continuation = state.withLock { $0.machine.cancel(id: id) }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Takes the queue if it is free, without waiting.
  func tryAcquire() -> Bool {
    state.withLock { $0.machine.tryAcquire() }
  }

  /// Appends a job behind everything already queued.
  ///
  /// If the queue was free, the caller now holds it and this call drains it
  /// before returning.
  func post(_ job: @escaping Job) async {
    let (action, observers) = state.withLock { state in (state.machine.post(job), state.takeSatisfiedObservers()) }
    for observer in observers { observer.resume() }
    if case .drainNow = action { await release() }
  }

  /// Gives the queue up: first runs, in this task and in order, every job
  /// queued ahead of the next waiting task, then hands the queue to that task
  /// and yields once, so that the task can run on this thread (or leaves it
  /// free).
  ///
  /// Inlined: with nothing queued, it frees the queue from the caller's
  /// frame, with no frame of its own.
  @inline(__always)
  nonisolated(nonsending) func release() async {
    let idle = state.withLock { state -> Bool in
      guard state.machine.releaseIfIdle() else { return false }
      state.current = nil
      return true
    }
    if idle {
      IdleWaiters.queueBecameFree(inDomain: owner.linkDomain)
    } else {
      await releaseToNext()
    }
  }

  /// ``release()`` with a job or a task waiting: runs the jobs ahead of the
  /// next task, then hands the queue to it.
  private nonisolated(nonsending) func releaseToNext() async {
    while true {
      let action = state.withLock { state -> Machine.ReleaseAction in
        state.current = nil
        return state.machine.release()
      }
      switch action {
      case .run(let job):
        await job()
      case .handOff(let continuation):
        continuation.resume()
        // Step aside once, so that this thread, whose caches hold the tree,
        // runs the resumed task next, instead of another core's thread
        // woken for it (CONCURRENCY.md, "Transactions").
        await Task.yield()
        return
      case .idle:
        IdleWaiters.queueBecameFree(inDomain: owner.linkDomain)
        return
      }
    }
  }

  /// Returns once at least `count` requests wait in this queue (tasks or
  /// queued jobs): a clear-box seam for the package's own tests.
  func pending(atLeast count: Int) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.machine.pendingCount >= count { return true }
        state.observers.add(count, continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
