import Synchronization

/// Tasks waiting for a controller's tree to be idle (``TreeCondition/idle``).
///
/// No polling: a waiter is checked when it registers and again each time a
/// queue of its tree becomes free or a transaction's deferred requests have
/// been dispatched — the only moments a tree can become idle. While nobody
/// waits, those moments cost one atomic load, and no lock is taken. The
/// registry is one for the process: while some task waits, a queue that
/// becomes free takes its lock and skips the waiters of other trees (other
/// link domains) with one atomic load each.
///
/// No wake-up is lost: a waiter counts itself in `waiting` *before* it
/// checks its tree, and whoever frees a queue or ends a dispatch does so
/// *before* it reads `waiting` (both sequentially consistent): either the
/// waiter sees the tree idle, or the other side sees the waiter.
///
/// Lock order: this registry's lock, then a link domain's lock (one waiter's
/// tree at a time), then a queue's lock.
/// Continuations are resumed after the lock is released.
enum IdleWaiters {
  private struct Waiter {
    let controller: any ViewController
    let continuation: UnsafeContinuation<Void, any Error>
  }

  private struct State {
    var waiters = ParkedWaiters<Waiter>()
  }

  private static let state = Locked(State())
  /// Waiters registering or parked.
  private static let waiting = Atomic<Int>(0)
  /// Transactions dispatching the requests they deferred (after releasing
  /// their queue): until they are done, a deferred request may be about to
  /// take a queue.
  private static let dispatchingDeferred = Atomic<Int>(0)

  /// Suspends until `controller`'s tree is idle (at once if it is). Throws
  /// `CancellationError` if the task is cancelled first.
  static func wait(for controller: any ViewController) async throws {
    let id = state.withLock { $0.waiters.issue() }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let outcome = state.withLock { state -> Result<Void, any Error>? in
          guard state.waiters.arrive(id) else { return .failure(CancellationError()) }
          waiting.add(1, ordering: .sequentiallyConsistent)
          if dispatchingDeferred.load(ordering: .sequentiallyConsistent) == 0,
            TreeLock.withLock(controller.node, { _isIdle(controller) })
          {
            waiting.subtract(1, ordering: .relaxed)
            return .success(())
          }
          state.waiters.park(id, Waiter(controller: controller, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        let waiter = state.waiters.cancel(id)
        if waiter != nil { waiting.subtract(1, ordering: .relaxed) }
        return waiter
      }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }

  /// A queue became free: wakes the waiters whose trees are now idle.
  /// Only waiters in that queue's tree can be idle now: those whose
  /// controller is in `domain` (a tree's objects share one; a waiter read
  /// in another domain while it joins this tree is checked when the
  /// transaction linking it frees its queue).
  static func queueBecameFree(inDomain domain: Int) {
    guard waiting.load(ordering: .sequentiallyConsistent) > 0 else { return }
    wakeIdle(inDomain: domain)
  }

  /// A transaction starts dispatching the requests it deferred.
  static func beginDispatchingDeferred() {
    dispatchingDeferred.add(1, ordering: .sequentiallyConsistent)
  }

  /// It is done with them.
  static func endDispatchingDeferred() {
    dispatchingDeferred.subtract(1, ordering: .sequentiallyConsistent)
    guard waiting.load(ordering: .sequentiallyConsistent) > 0 else { return }
    wakeIdle(inDomain: nil)
  }

  /// Wakes the waiters whose trees are idle, among those in `domain` (all
  /// if nil).
  private static func wakeIdle(inDomain domain: Int?) {
    let ready = state.withLock { state -> [UnsafeContinuation<Void, any Error>] in
      guard dispatchingDeferred.load(ordering: .sequentiallyConsistent) == 0 else { return [] }
      let ready = state.waiters.take { waiter in
        let node = waiter.controller.node
        if let domain, node.linkDomain != domain { return false }
        return TreeLock.withLock(node) { _isIdle(waiter.controller) }
      }
      waiting.subtract(ready.count, ordering: .relaxed)
      return ready.map(\.continuation)
    }
    for continuation in ready { continuation.resume() }
  }

  /// Under the link lock: no queue that can touch `controller`'s subtree is
  /// held or has requests waiting.
  private static func _isIdle(_ controller: any ViewController) -> Bool {
    func free(_ queue: TransactionQueue) -> Bool { !queue.isHeld && queue.pendingCount == 0 }
    for member in Teardown._stopOrder(from: controller) where !free(member.node.queue) { return false }
    var ancestor = controller.node._treeParent
    while let node = ancestor {
      if !free(node.queue) { return false }
      ancestor = node._treeParent
    }
    if let window = controller.node._hostingWindow(), !free(window.queue) { return false }
    return true
  }
}
