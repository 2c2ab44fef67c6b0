import ContainmentLocking
import Synchronization

/// The transaction a task is running, found through a task-local.
///
/// It is an *owner token*, not a flag: a task created inside a transaction
/// inherits it, but it counts only while its transaction is still the one
/// holding its queue (`isRunning`), so a stale copy in a task that outlives the
/// transaction is ignored.
final class TransactionContext: Sendable {
  /// Which of a transaction's two views of itself a context is.
  enum Role {
    /// The transaction's own context. The runtime's code (a verb's body)
    /// gets it explicitly; the transaction's task is bound to it for the
    /// whole transaction, and bound to a task it means *inside one of the
    /// transaction's hooks*: hooks the runtime delivers with it need no
    /// binding of their own.
    case engine
    /// User code that runs as the transaction's body (a scope's closure,
    /// animations), and the runtime code such code calls.
    case body
  }

  /// The transaction's id; every event it causes carries it.
  let id: TransactionID
  /// Whose queue it holds.
  let governor: Governor
  /// The transaction this one runs inside of (a hook of `outer` made the
  /// request that started this one), if any.
  let outer: TransactionContext?
  /// On a body context: the transaction's own (engine) context.
  private let engine: TransactionContext?

  /// Whether this is the transaction's engine context or a body context
  /// (stored: derived from `engine` on every hook, it cost a retain and a
  /// release of it).
  let role: Role

  /// On the engine context: the requests deferred until the transaction
  /// ends (``deferUntilEnd(onto:_:)``).
  ///
  /// Most transactions defer none and pay for no lock and no allocation.
  private let deferred = DeferredStack()

  @TaskLocal static var current: TransactionContext?

  /// A new transaction's (engine) context.
  init(id: TransactionID, governor: Governor, outer: TransactionContext?) {
    self.id = id
    self.governor = governor
    self.outer = outer
    self.engine = nil
    self.role = .engine
  }

  /// A body context of `engine`'s transaction.
  private init(bodyOf engine: TransactionContext) {
    self.id = engine.id
    self.governor = engine.governor
    self.outer = engine.outer
    self.engine = engine
    self.role = .body
  }

  /// Read from a task's binding: true while one of the transaction's hooks
  /// runs, so requests made then are *nested* requests (R2); false for its
  /// body, whose requests are part of it.
  var inHook: Bool { role == .engine }

  /// Read from a task's binding: whether the task runs the innermost running
  /// transaction's body (not one of its hooks), so that a verb it validated
  /// and started finishes.
  var isBody: Bool { role == .body }

  /// The same transaction, as seen from inside one of its hooks: its engine
  /// context.
  func enteringHook() -> TransactionContext {
    engine ?? self
  }

  /// The same transaction, as user code running as its body sees it: a body
  /// context, made for each stretch of user code the engine runs (scopes and
  /// animations only; most transactions run none).
  private func asBody() -> TransactionContext {
    role == .body ? self : TransactionContext(bodyOf: self)
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

  /// Queues a request onto `targets` to be dispatched once this transaction
  /// has released its queue (a nested request to an ancestor's container,
  /// R2); returns false, queuing nothing, if the transaction has ended
  /// meanwhile (a task its hook started can find it running and then late):
  /// the caller dispatches the request again itself.
  ///
  /// From now until it has been dispatched (run, or queued on a governor's
  /// queue), every governor of `targets` counts it
  /// (``Governor/countDeferred(_:_:)``): a tree that one of their queues can
  /// touch is not idle meanwhile, and its idle waiters are checked again once
  /// it has been. `targets` are linked to each other when it is deferred.
  func deferUntilEnd(onto targets: [Governor], _ dispatch: @escaping @Sendable () async -> Void) -> Bool {
    TreeLock.withLock(targets.map(\.member)) { held in
      for target in targets { target.countDeferred(held, 1) }
    }
    let deferred = enteringHook().deferred.push {
      await dispatch()
      Self.uncountDeferred(onto: targets)
    }
    if !deferred { Self.uncountDeferred(onto: targets) }
    return deferred
  }

  /// A request deferred onto `targets` has been dispatched (or was not
  /// deferred after all): they no longer count it.
  ///
  /// They may be in several link domains by now (a part of the tree was cut
  /// off meanwhile): the waiters of each are checked.
  private static func uncountDeferred(onto targets: [Governor]) {
    let domains = TreeLock.withLock(targets.map(\.member)) { held -> Set<Int> in
      for target in targets { target.countDeferred(held, -1) }
      return Set(targets.map(\.member.linkDomain))
    }
    for domain in domains { IdleWaiters.deferredRequestDispatched(inDomain: domain) }
  }

  /// At the transaction's end: the requests it deferred, oldest first; later
  /// ones are refused (``deferUntilEnd(onto:_:)`` returns false).
  func takeDeferred() -> [@Sendable () async -> Void] {
    enteringHook().deferred.close()
  }

  /// Runs `body` (hooks, or the runtime's code that delivers hooks) with this
  /// context as the task's current transaction, marked as being inside a hook.
  ///
  /// The engine context's task is bound that way for the whole transaction
  /// (`Transaction.run`), so with it this neither reads nor binds the
  /// task-local; with the others it binds unless the task already is (a
  /// scope's body, a supervised hook's own task). Reading a task-local costs
  /// a walk of the task's bindings; binding one, an allocation and the task's
  /// status lock.
  nonisolated(nonsending) func withHookBinding<R: Sendable>(_ body: nonisolated(nonsending) () async -> R) async -> R {
    guard let binding = hookBindingNeeded() else { return await body() }
    return await TransactionContext.$current.withValue(binding) { await body() }
  }

  /// The context to bind for running a hook of this transaction, or nil if
  /// the task already is bound to it (always, with the engine context).
  func hookBindingNeeded() -> TransactionContext? {
    if role == .engine { return nil }
    let inHook = enteringHook()
    return TransactionContext.current === inHook ? nil : inHook
  }

  /// Runs user code that is part of this transaction's body (a scope's
  /// closure, a transition's animations) with the task bound to a body
  /// context: requests it makes to this transaction's own queue run inline
  /// (rule 2 of ``Transaction``), with that body context as theirs.
  ///
  /// A transaction's task is otherwise bound as its hooks see it, since the
  /// runtime's own code passes the engine context explicitly.
  nonisolated(nonsending) func runAsBody<R: Sendable>(_ body: nonisolated(nonsending) () async throws -> R)
    async rethrows
    -> R
  {
    let asBody = asBody()
    if TransactionContext.current === asBody { return try await body() }
    return try await TransactionContext.$current.withValue(asBody) { try await body() }
  }
}
