import ContainmentLocking
import Synchronization

/// The one way the runtime calls user code: lifecycle hooks, `loadView`,
/// delegate methods, animations, interactive drivers, scope bodies and
/// teardown hooks all go through ``call(_:in:announcing:ifAbandoned:_:)``.
///
/// It alone knows about deadlines, stall reports, faults, teardown's
/// escalation and how the calling task is marked (R2).
///
/// **Unsupervised** (no environment in the process sets a hook deadline, a
/// stall warning or a teardown policy with limits): the code is called
/// directly on the caller's task, marked as a hook or as the transaction's
/// body. One relaxed atomic load is the whole cost of supervision.
///
/// **Supervised** (the owner's environment sets one of them): a faulted
/// owner's code is skipped and reported (`hookSkipped`); otherwise the code
/// runs in a task of its own (it inherits the caller's priority and
/// task-locals, and the caller's cancellation is forwarded to it) while a
/// ``CallWatch`` times its *own* time on the tree's clock: a nested call into
/// other user code pauses the outer call's clock, so a container is never
/// charged for its children's hooks. Past the deadline the caller stops
/// waiting, the owner is faulted (`hookTimedOut`) and handed to its fault
/// policy; past each stall interval the owner's stream gets `hookStalled`;
/// a teardown of the owner's window cancels the call after its graceful
/// period and abandons it after the next (`hookAbandoned`, faulted). A call
/// no longer waited for returns the caller's fallback, so the transaction
/// goes on as if the code had returned.
enum Gateway {
  /// User code, run where its caller runs.
  typealias Code<R> = nonisolated(nonsending) @Sendable () async -> R
  typealias ThrowingCode<R> = nonisolated(nonsending) @Sendable () async throws -> R

  /// The supervised call whose code the current task runs, if any.
  @TaskLocal static var current: CallWatch?

  /// Calls `body`, user code, for `call` inside `context` (nil: outside any
  /// transaction), and returns its value, or `fallback()` if the runtime
  /// stopped waiting for it (supervised only).
  ///
  /// `event`, if given, is emitted on the owner's stream just before the code
  /// runs (not when it is skipped). `treeEnvironment`, if given, supervises
  /// the call when neither the owner nor an ancestor sets an environment:
  /// the environment of the tree a teardown took it out of.
  nonisolated(nonsending) static func call<R: Sendable>(
    _ call: UserCall,
    in context: TransactionContext?,
    announcing event: LifecycleEvent.Kind? = nil,
    treeEnvironment: ContainmentEnvironment? = nil,
    ifAbandoned fallback: @escaping @Sendable () -> R,
    _ body: @escaping Code<R>
  ) async -> R {
    if CallSupervision.isActive {
      return await supervised(
        call, in: context, announcing: event, treeEnvironment: treeEnvironment, ifAbandoned: fallback, body)
    }
    if let event { call.owner.node.emit(event, transaction: context?.id) }
    return await bound(call.role, context, body)
  }

  /// ``call(_:in:announcing:ifAbandoned:_:)`` for code that throws: a call
  /// no longer waited for throws ``ContainmentError/userCodeAbandoned(_:call:)``.
  nonisolated(nonsending) static func callThrowing<R: Sendable>(
    _ call: UserCall,
    in context: TransactionContext?,
    _ body: @escaping ThrowingCode<R>
  ) async throws -> R {
    let owner = call.owner.node.id
    let name = call.name
    let result = await self.call(
      call, in: context, ifAbandoned: { .failure(ContainmentError.userCodeAbandoned(owner, call: name)) }
    ) { await Result(catching: { try await body() }) }
    return try result.get()
  }

  /// Runs `body` with the task marked as `role` says inside `context`.
  private nonisolated(nonsending) static func bound<R: Sendable>(
    _ role: UserCall.Role, _ context: TransactionContext?, _ body: nonisolated(nonsending) () async -> R
  ) async -> R {
    guard let context else { return await body() }
    switch role {
    case .hook: return await context.withHookBinding(body)
    case .body: return await context.runAsBody(body)
    }
  }

  private nonisolated(nonsending) static func supervised<R: Sendable>(
    _ call: UserCall,
    in context: TransactionContext?,
    announcing event: LifecycleEvent.Kind?,
    treeEnvironment: ContainmentEnvironment?,
    ifAbandoned fallback: @escaping @Sendable () -> R,
    _ body: @escaping Code<R>
  ) async -> R {
    // Whatever this call takes is not the enclosing call's own time.
    let outer = current
    outer?.pause()
    defer { outer?.resume() }
    let node = call.owner.node
    let (faulted, environment, window) = TreeLock.withLock(node) { held in
      let position = node.position(held)
      return (
        node[held].supervision.isFaulted, position.environment ?? treeEnvironment ?? .default, position.window
      )
    }
    if faulted {
      node.emit(.hookSkipped(hook: call.name), transaction: context?.id)
      return fallback()
    }
    if let event { node.emit(event, transaction: context?.id) }
    guard environment.supervises else { return await bound(call.role, context, body) }
    let watch = CallWatch(call, environment: environment, transaction: context?.id)
    let role = call.role
    // Unstructured on purpose: a call past its deadline, or abandoned by a
    // teardown, is no longer waited for, and a child task could not be (its
    // scope would wait for it).
    let work = Task {
      let value = await Gateway.$current.withValue(watch) { await bound(role, context, body) }
      watch.resolve(.returned)
      return value
    }
    watch.start(work)
    window?.runningCalls.register(watch)
    let outcome = await withTaskCancellationHandler {
      await watch.outcome()
    } onCancel: {
      work.cancel()
    }
    window?.runningCalls.remove(watch)
    switch outcome {
    case .returned:
      return await work.value
    case .timedOut(let deadline):
      await fault(
        call.owner, reporting: .hookTimedOut(hook: call.name, deadline: deadline), policy: environment.faultPolicy,
        context: context)
      return fallback()
    case .abandoned:
      await fault(call.owner, reporting: .hookAbandoned(hook: call.name), policy: nil, context: context)
      return fallback()
    }
  }

  /// Faults `controller` (once: later faults report nothing) and hands it to
  /// `policy` (none for a teardown's abandonment: the tree is going anyway).
  private static func fault(
    _ controller: any ViewController, reporting event: LifecycleEvent.Kind, policy: FaultPolicy?,
    context: TransactionContext?
  ) async {
    let node = controller.node
    let first = TreeLock.withLock(node) { (held: LinkSection) -> Bool in
      defer { node[held].supervision.isFaulted = true }
      return !node[held].supervision.isFaulted
    }
    guard first else { return }
    node.emit(event, transaction: context?.id)
    if let policy { await HookSupervision.faulted(controller, policy: policy, context: context) }
  }
}
