/// The transaction a task is running, found through a task-local. It is an
/// *owner token*, not a flag: a task created inside a transaction inherits
/// it, but it counts only while its transaction is still the one holding its
/// queue (`isRunning`), so a stale copy in a task that outlives the
/// transaction is ignored.
final class TransactionContext: Sendable {
  /// The transaction's id; every event it causes carries it.
  let id: TransactionID
  /// Whose queue it holds.
  let governor: Governor
  /// The transaction this one runs inside of (a hook of `outer` made the
  /// request that started this one), if any.
  let outer: TransactionContext?
  /// True while one of the transaction's hooks runs: requests made then are
  /// *nested* requests (R2); requests made by the transaction's own body
  /// are part of it.
  let inHook: Bool
  private let deferred: DeferredRequests
  /// The same transaction as seen from inside its hooks, made once with the
  /// transaction; nil on that twin itself.
  private let hookTwin: TransactionContext?

  final class DeferredRequests: Sendable {
    let list = Locked<[@Sendable () async -> Void]>([])
  }

  @TaskLocal static var current: TransactionContext?

  init(id: TransactionID, governor: Governor, outer: TransactionContext?) {
    let deferred = DeferredRequests()
    self.id = id
    self.governor = governor
    self.outer = outer
    self.inHook = false
    self.deferred = deferred
    self.hookTwin = TransactionContext(inHookOf: id, governor: governor, outer: outer, deferred: deferred)
  }

  private init(inHookOf id: TransactionID, governor: Governor, outer: TransactionContext?, deferred: DeferredRequests) {
    self.id = id
    self.governor = governor
    self.outer = outer
    self.inHook = true
    self.deferred = deferred
    self.hookTwin = nil
  }

  /// Whether `self` is the innermost running transaction's body (not one of
  /// its hooks): the runtime finishing a verb it validated and started.
  var isBody: Bool { !inHook }

  /// The same transaction, as seen from inside one of its hooks.
  func enteringHook() -> TransactionContext {
    hookTwin ?? self
  }

  /// Whether this transaction still holds its queue.
  var isRunning: Bool { governor.queue.isCurrent(id) }

  /// The innermost of this context and its outer ones that is still
  /// running (`runningChain().first`, without building the chain).
  var innermostRunning: TransactionContext? {
    var context: TransactionContext? = self
    while let current = context {
      if current.isRunning { return current }
      context = current.outer
    }
    return nil
  }

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
  /// queue (a nested request to an ancestor's container, R2).
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
  /// A transaction's own task is bound that way for its whole body
  /// (`Transaction.run`), so this binds nothing there; it binds for hooks
  /// delivered from a task bound otherwise (a scope's body, a supervised
  /// hook's own task). Binding a task-local costs an allocation and the
  /// task's status lock.
  nonisolated(nonsending) func runHook<R: Sendable>(_ body: nonisolated(nonsending) () async -> R) async -> R {
    let inHook = enteringHook()
    if TransactionContext.current === inHook { return await body() }
    return await TransactionContext.$current.withValue(inHook) { await body() }
  }

  /// Runs user code that is part of this transaction's body (a scope's
  /// closure, a transition's animations) with the task bound as the body:
  /// requests it makes to this transaction's own queue run inline (rule 2
  /// of ``Transaction``). A transaction's task is otherwise bound as its
  /// hooks see it, since the runtime's own code passes the context explicitly.
  nonisolated(nonsending) func runAsBody<R: Sendable>(_ body: nonisolated(nonsending) () async throws -> R)
    async rethrows
    -> R
  {
    if TransactionContext.current === self { return try await body() }
    return try await TransactionContext.$current.withValue(self) { try await body() }
  }
}
