import Synchronization

/// The transaction a task is running, found through a task-local. It is an
/// *owner token*, not a flag: a task created inside a transaction inherits
/// it, but it counts only while its transaction is still the one holding its
/// queue (`isRunning`), so a stale copy in a task that outlives the
/// transaction is ignored.
final class TransactionContext: Sendable {
  /// Which of a transaction's three views of itself a context is.
  enum Role {
    /// What the runtime's own code runs with (a verb's body): its task is
    /// bound as ``hook`` for the whole transaction, so hooks it delivers
    /// need no binding of their own. Never bound as a task's current
    /// transaction.
    case engine
    /// User code that runs as the transaction's body (a scope's closure,
    /// animations), and the runtime code such code calls.
    case body
    /// Inside one of the transaction's hooks.
    case hook
  }

  /// The transaction's id; every event it causes carries it.
  let id: TransactionID
  /// Whose queue it holds.
  let governor: Governor
  /// The transaction this one runs inside of (a hook of `outer` made the
  /// request that started this one), if any.
  let outer: TransactionContext?
  let role: Role
  /// The same transaction as seen from inside its hooks, made once with the
  /// transaction; nil on that twin itself.
  private let hookTwin: TransactionContext?
  /// On the engine context: the body twin, made the first time user code
  /// runs as the body (most transactions never do).
  private let bodyTwin = Atomic<Unmanaged<TransactionContext>?>(nil)

  /// On the hook twin: the requests deferred until the transaction ends
  /// (``deferUntilEnd(_:)``), newest first. Most transactions defer none and
  /// pay for no lock and no allocation.
  private let deferred = DeferredStack()

  @TaskLocal static var current: TransactionContext?

  /// A new transaction's engine context (and its hook twin).
  init(id: TransactionID, governor: Governor, outer: TransactionContext?) {
    self.id = id
    self.governor = governor
    self.outer = outer
    self.role = .engine
    self.hookTwin = TransactionContext(twinOf: id, role: .hook, governor: governor, outer: outer, hookTwin: nil)
  }

  private init(
    twinOf id: TransactionID, role: Role, governor: Governor, outer: TransactionContext?,
    hookTwin: TransactionContext?
  ) {
    self.id = id
    self.governor = governor
    self.outer = outer
    self.role = role
    self.hookTwin = hookTwin
  }

  deinit {
    bodyTwin.load(ordering: .acquiring)?.release()
  }

  /// True while one of the transaction's hooks runs: requests made then are
  /// *nested* requests (R2); requests made by the transaction's own body
  /// are part of it.
  var inHook: Bool { role == .hook }

  /// Whether `self` is the innermost running transaction's body (not one of
  /// its hooks): the runtime finishing a verb it validated and started.
  var isBody: Bool { role != .hook }

  /// The same transaction, as seen from inside one of its hooks.
  func enteringHook() -> TransactionContext {
    hookTwin ?? self
  }

  /// The same transaction, as user code running as its body sees it.
  private func asBody() -> TransactionContext {
    guard role == .engine else { return self }
    if let twin = bodyTwin.load(ordering: .acquiring) { return twin.takeUnretainedValue() }
    let made = Unmanaged.passRetained(
      TransactionContext(
        twinOf: id, role: .body, governor: governor, outer: outer, hookTwin: hookTwin))
    let (exchanged, existing) = bodyTwin.compareExchange(
      expected: nil, desired: made, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
    if exchanged { return made.takeUnretainedValue() }
    made.release()
    // Non-nil: the exchange failed because another task stored it first.
    return existing.unsafelyUnwrapped.takeUnretainedValue()
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
    enteringHook().deferred.push(dispatch)
  }

  func takeDeferred() -> [@Sendable () async -> Void] {
    enteringHook().deferred.takeAll()
  }

  /// Runs `body` with this context as the task's current transaction, marked
  /// as being inside a hook.
  /// The engine context's task is bound that way for the whole transaction
  /// (`Transaction.run`), so with it this neither reads nor binds the
  /// task-local; with the others it binds unless the task already is (a
  /// scope's body, a supervised hook's own task). Reading a task-local costs
  /// a walk of the task's bindings; binding one, an allocation and the task's
  /// status lock.
  nonisolated(nonsending) func runHook<R: Sendable>(_ body: nonisolated(nonsending) () async -> R) async -> R {
    if role == .engine { return await body() }
    let inHook = enteringHook()
    if TransactionContext.current === inHook { return await body() }
    return await TransactionContext.$current.withValue(inHook) { await body() }
  }

  /// Runs user code that is part of this transaction's body (a scope's
  /// closure, a transition's animations) with the task bound as the body
  /// twin: requests it makes to this transaction's own queue run inline
  /// (rule 2 of ``Transaction``), with the body twin as their context. A
  /// transaction's task is otherwise bound as its hooks see it, since the
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

/// A lock-free stack of deferred requests: pushed from any task, taken all at
/// once. Each node is owned by the stack (retained once) until taken.
struct DeferredStack: ~Copyable, Sendable {
  typealias Request = @Sendable () async -> Void

  private final class Node: Sendable {
    let request: Request
    let next: Unmanaged<Node>?
    init(_ request: @escaping Request, next: Unmanaged<Node>?) {
      self.request = request
      self.next = next
    }
  }

  private let top = Atomic<Unmanaged<Node>?>(nil)

  init() {}

  deinit { _ = takeAll() }

  func push(_ request: @escaping Request) {
    var expected = top.load(ordering: .acquiring)
    while true {
      let node = Unmanaged.passRetained(Node(request, next: expected))
      let (exchanged, current) = top.compareExchange(
        expected: expected, desired: node, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
      if exchanged { return }
      node.release()
      expected = current
    }
  }

  /// Everything pushed so far, oldest first; the stack is empty afterwards.
  func takeAll() -> [Request] {
    guard var next = top.exchange(nil, ordering: .acquiringAndReleasing) else { return [] }
    var requests: [Request] = []
    while true {
      let node = next.takeRetainedValue()
      requests.append(node.request)
      guard let below = node.next else { break }
      next = below
    }
    return requests.reversed()
  }
}
