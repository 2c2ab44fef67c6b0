/// The transaction a task is running, found through a task-local (DESIGN-NOTES
/// force 5). It is an *owner token*, not a flag: a task created inside a
/// transaction inherits it, but it counts only while its transaction is still
/// the one holding its queue (`isRunning`), so a stale copy in a task that
/// outlives the transaction is ignored.
final class TransactionContext: Sendable {
  /// The transaction's id; every event it causes carries it.
  let id: TransactionID
  /// Whose queue it holds.
  let governor: Governor
  /// The transaction this one runs inside of (a hook of `outer` made the
  /// request that started this one), if any.
  let outer: TransactionContext?
  /// True while one of the transaction's hooks runs: requests made then are
  /// *nested* requests (SPEC R2); requests made by the transaction's own body
  /// are part of it.
  let inHook: Bool
  private let deferred: DeferredRequests

  final class DeferredRequests: Sendable {
    let list = Locked<[@Sendable () async -> Void]>([])
  }

  @TaskLocal static var current: TransactionContext?

  init(id: TransactionID, governor: Governor, outer: TransactionContext?) {
    self.id = id
    self.governor = governor
    self.outer = outer
    self.inHook = false
    self.deferred = DeferredRequests()
  }

  private init(copying other: TransactionContext, inHook: Bool) {
    self.id = other.id
    self.governor = other.governor
    self.outer = other.outer
    self.inHook = inHook
    self.deferred = other.deferred
  }

  /// The same transaction, as seen from inside one of its hooks.
  func enteringHook() -> TransactionContext {
    inHook ? self : TransactionContext(copying: self, inHook: true)
  }

  /// Whether this transaction still holds its queue.
  var isRunning: Bool { governor.queue.isCurrent(id) }

  /// This context and its outer ones that are still running, innermost first.
  func runningChain() -> [TransactionContext] {
    var chain: [TransactionContext] = []
    var context: TransactionContext? = self
    while let current = context {
      if current.isRunning { chain.append(current) }
      context = current.outer
    }
    return chain
  }

  /// Queues a request to be dispatched once this transaction has released its
  /// queue (a nested request to an ancestor's container, SPEC R2).
  func deferUntilEnd(_ dispatch: @escaping @Sendable () async -> Void) {
    deferred.list.withLock { $0.append(dispatch) }
  }

  func takeDeferred() -> [@Sendable () async -> Void] {
    deferred.list.withLock { list in
      defer { list.removeAll() }
      return list
    }
  }

  /// Runs `body` with this context as the task's current transaction, marked
  /// as being inside a hook.
  func runHook<R: Sendable>(_ body: () async -> R) async -> R {
    await TransactionContext.$current.withValue(enteringHook()) { await body() }
  }
}
