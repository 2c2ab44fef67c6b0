import ContainmentLocking
/// The outcome of one request to a container (R2).
///
/// A request made from outside any transaction has completed by the time its
/// verb returns, so its handle is already complete (and errors were thrown by
/// the verb itself). A request made from inside a hook is queued and the verb
/// returns at once: its handle completes later, and the controller's event
/// stream shows the effect.
///
/// Awaiting ``value`` from inside the transaction that the request is queued
/// behind would wait forever; it throws
/// ``ContainmentError/awaitingOwnTransaction(_:)`` instead.
public final class TransactionHandle<Value: Sendable>: Sendable {
  /// The request's transaction id (its events carry it).
  ///
  /// A request that ran as part of the calling transaction shares that
  /// transaction's id.
  public let id: TransactionID
  /// Ids of the transactions that were running in the requesting task when
  /// the request was queued: awaiting from inside any of them is refused.
  let queuedBehind: [TransactionID]
  /// A request a hook made, queued as a job: if the task that drains the
  /// queue is cancelled before the job starts, it completes with
  /// `CancellationError` and changes nothing.
  ///
  /// False for the runtime's own steps, which were promised to run (a move's
  /// second step, a container's work started from its hooks).
  let cancellableWhileQueued: Bool

  private struct State {
    var result: Result<Value, any Error>?
    /// The tasks waiting for `result`, cancellable before they park.
    var waiters = ParkedWaiters<UnsafeContinuation<Result<Value, any Error>, Never>>()
  }
  /// The outcome of a handle made complete (most requests: every one made
  /// from outside a transaction); it has no lock.
  ///
  /// Stored without its type, so that releasing a handle (once per request)
  /// destroys only values of known layout: a generic class's deinit would
  /// otherwise look up `Result<Value, any Error>`'s metadata in the runtime's
  /// shared cache each time, a lookup every thread's requests contend on.
  private let settled: SettledOutcome
  /// A pending handle's state; nil on one made complete.
  private let state: Locked<State>?

  /// A pending handle, completed later with ``complete(_:)``.
  init(id: TransactionID, queuedBehind: [TransactionID], cancellableWhileQueued: Bool = false) {
    self.id = id
    self.queuedBehind = queuedBehind
    self.cancellableWhileQueued = cancellableWhileQueued
    self.settled = .pending
    self.state = Locked(State())
  }

  private init(id: TransactionID, settled: Result<Value, any Error>) {
    self.id = id
    self.queuedBehind = []
    self.cancellableWhileQueued = false
    self.settled = SettledOutcome(settled)
    self.state = nil
  }

  /// A handle made complete with `result`.
  static func completed(id: TransactionID, _ result: Result<Value, any Error>) -> TransactionHandle {
    TransactionHandle(id: id, settled: result)
  }

  /// Whether the request has finished (successfully or not).
  public var isComplete: Bool { result != nil }

  /// The outcome, if finished.
  public var result: Result<Value, any Error>? {
    guard let state else { return settled.result(Value.self) }
    return state.withLock { $0.result }
  }

  /// Waits for the outcome and returns it, or throws its error.
  ///
  /// Cancellation: cancelling the awaiting task stops the wait with
  /// `CancellationError`; the request itself still runs.
  /// Throws ``ContainmentError/awaitingOwnTransaction(_:)`` when called from
  /// inside a transaction the request is queued behind.
  public var value: Value {
    get async throws {
      if let result = self.result { return try result.get() }
      if let context = TransactionContext.current,
        let blocking = context.runningChain().first(where: { queuedBehind.contains($0.id) })
      {
        throw ContainmentError.awaitingOwnTransaction(blocking.id)
      }
      return try await wait(cancellable: true).get()
    }
  }

  /// Waits ignoring cancellation: for steps the runtime has committed to.
  func waitUncancellable() async -> Result<Value, any Error> {
    await wait(cancellable: false)
  }

  private func wait(cancellable: Bool) async -> Result<Value, any Error> {
    // A handle without state was made complete.
    guard let state else { return settled.result(Value.self).unsafelyUnwrapped }
    let id = state.withLock { $0.waiters.issue() }
    let body = {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, any Error>, Never>) in
        let ready = state.withLock { state -> Result<Value, any Error>? in
          let arrived = state.waiters.arrive(id)
          if let result = state.result { return result }
          guard arrived else { return .failure(CancellationError()) }
          state.waiters.park(id, continuation)
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    }
    guard cancellable else { return await body() }
    return await withTaskCancellationHandler {
      await body()
    } onCancel: {
      state.withLock { $0.waiters.cancel(id) }?.resume(returning: .failure(CancellationError()))
    }
  }

  /// Completes a pending handle (a handle made complete ignores it).
  func complete(_ result: Result<Value, any Error>) {
    guard let state else { return }
    let waiters = state.withLock { state -> [UnsafeContinuation<Result<Value, any Error>, Never>] in
      guard state.result == nil else { return [] }
      state.result = result
      return state.waiters.take { _ in true }
    }
    for waiter in waiters { waiter.resume(returning: result) }
  }
}

/// A completed handle's outcome, without its value's static type.
private enum SettledOutcome: Sendable {
  /// A pending handle: its outcome is in its state.
  case pending
  case success(any Sendable)
  case failure(any Error)

  init<Value: Sendable>(_ result: Result<Value, any Error>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }

  /// The outcome as it was stored (`Value` is the type it was stored with).
  func result<Value: Sendable>(_: Value.Type) -> Result<Value, any Error>? {
    switch self {
    case .pending: return nil
    case .success(let value):
      // Stored by `init(_:)` from a `Value`.
      guard let value = value as? Value else { preconditionFailure("a handle's outcome changed its type") }
      return .success(value)
    case .failure(let error): return .failure(error)
    }
  }
}
