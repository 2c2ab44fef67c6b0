import ContainmentLocking
import Synchronization

/// Tasks waiting for a controller's tree to be idle (``TreeCondition/idle``).
///
/// No polling: a waiter is checked when it registers and again each time a
/// queue of its tree becomes free or a request deferred onto one of its
/// queues has been dispatched — the only moments a tree can become idle.
///
/// Each link domain counts the waiters whose controllers it guards (the
/// count moves with them when a tree joins another domain, see
/// ``TreeLock/join(_:_:into:)``). A queue that becomes free reads its own
/// domain's count: while no waiter is in its tree, that is one atomic load,
/// and the registry's lock is not taken. So the registry, one for the
/// process, is shared only by trees that have waiters.
///
/// No wake-up is lost: a waiter counts itself in its domain *before* it
/// checks its tree, and whoever frees a queue or ends a dispatch does so
/// *before* it reads the count (both sequentially consistent): either the
/// waiter sees the tree idle, or the other side sees the waiter.
///
/// Nothing here is shared by trees that have no waiters, and a tree's
/// waiters are woken by its own queues only: a request deferred onto a
/// governor is counted by that governor (``Governor/countDeferred(_:_:)``),
/// not by the process.
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
  /// Waiters per link domain (see ``counted(_:_:_:)``).
  private static let waitingIn = DomainCounters(count: TreeLock.domains.count)

  /// Suspends until `controller`'s tree is idle (at once if it is).
  ///
  /// Throws `CancellationError` if the task is cancelled first.
  static func wait(for controller: any ViewController) async throws {
    let id = state.withLock { $0.waiters.issue() }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let outcome = state.withLock { state -> Result<Void, any Error>? in
          guard state.waiters.arrive(id) else { return .failure(CancellationError()) }
          let idle = TreeLock.withLock(controller.node) { (held: LinkSection) -> Bool in
            // Counted before the check (see the type's notes).
            counted(held, controller, 1)
            guard isIdle(held, controller) else { return false }
            counted(held, controller, -1)
            return true
          }
          if idle { return .success(()) }
          state.waiters.park(id, Waiter(controller: controller, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        guard let waiter = state.waiters.cancel(id) else { return nil }
        TreeLock.withLock(waiter.controller.node) { held in counted(held, waiter.controller, -1) }
        return waiter
      }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }

  /// A queue of a governor in link domain `domain` became free: wakes the
  /// waiters of its tree that are idle now.
  ///
  /// Waiters of other trees are in other domains (a tree's objects share one; a
  /// waiter that is joining this tree right now is checked when the transaction
  /// linking it frees its queue).
  static func queueBecameFree(inDomain domain: Int) {
    guard waitingIn.load(domain) > 0 else { return }
    wakeIdle(inDomain: domain)
  }

  /// A tree left another for `domain` (``ControllerNode/leftItsTree()``):
  /// the waiters that moved with it wait for its own queues now, and
  /// whoever frees a queue of the tree it left no longer looks at them.
  static func treeSeparated(intoDomain domain: Int) {
    guard waitingIn.load(domain) > 0 else { return }
    wakeIdle(inDomain: domain)
  }

  /// A request deferred onto a governor in link domain `domain` has been
  /// dispatched (it ran, or waits in that governor's queue) and is no longer
  /// counted there: wakes the waiters of its tree that are idle now.
  static func deferredRequestDispatched(inDomain domain: Int) {
    guard waitingIn.load(domain) > 0 else { return }
    wakeIdle(inDomain: domain)
  }

  /// With the lock of `domain` and the lock of `into` held, moving objects
  /// from one to the other: `count` waiters move with them.
  static func moved(_ held: LinkSection, _ count: Int, from domain: Int, into: Int) {
    waitingIn.add(count, to: into)
    waitingIn.add(-count, to: domain)
  }

  /// Under the lock of `controller`'s domain: counts (`delta` 1) or uncounts
  /// (-1) a waiter for it, on the controller and in its domain.
  private static func counted(_ held: LinkSection, _ controller: any ViewController, _ delta: Int32) {
    controller.node[held].idleWaiters += delta
    waitingIn.add(Int(delta), to: controller.node.linkDomain)
  }

  /// Wakes the waiters whose trees are idle, among those in `domain`.
  private static func wakeIdle(inDomain domain: Int) {
    let ready = state.withLock { state -> [UnsafeContinuation<Void, any Error>] in
      let ready = state.waiters.take { waiter in
        let node = waiter.controller.node
        if node.linkDomain != domain { return false }
        return TreeLock.withLock(node) { (held: LinkSection) -> Bool in
          guard isIdle(held, waiter.controller) else { return false }
          counted(held, waiter.controller, -1)
          return true
        }
      }
      return ready.map(\.continuation)
    }
    for continuation in ready { continuation.resume() }
  }

  /// Under the link lock: no queue that can touch `controller`'s subtree is
  /// held, has requests waiting, or has a request deferred onto it that is
  /// not dispatched yet.
  private static func isIdle(_ held: LinkSection, _ controller: any ViewController) -> Bool {
    func free(_ queue: TransactionQueue?) -> Bool { queue.map { !$0.isHeld && $0.pendingCount == 0 } ?? true }
    func free(_ node: ControllerNode) -> Bool { node[held].deferredRequests == 0 && free(node.queueIfCreated) }
    for member in TreeWalk.stopOrder(held, from: controller) where !free(member.node) { return false }
    var ancestor = controller.node[held].treeParent
    while let node = ancestor {
      if !free(node) { return false }
      ancestor = node[held].treeParent
    }
    if let window = controller.node.hostingWindow(held),
      window[held].deferredRequests > 0 || !free(window.queue)
    {
      return false
    }
    return true
  }
}

/// One atomic counter per link domain.
final class DomainCounters: Sendable {
  private final class Counter: Sendable {
    let value = Atomic<Int>(0)
  }
  private let counters: [Counter]

  init(count: Int) { counters = (0..<count).map { _ in Counter() } }

  func add(_ delta: Int, to domain: Int) {
    counters[domain].value.add(delta, ordering: .sequentiallyConsistent)
  }

  func load(_ domain: Int) -> Int { counters[domain].value.load(ordering: .sequentiallyConsistent) }
}
