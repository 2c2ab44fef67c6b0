import ContainmentLocking
/// A request to end a running tree gracefully (V5): the signal that
/// ``Window/run(_:until:)`` waits for, besides its task's cancellation.
///
/// A request is remembered: one made before `run` started, or before it
/// reached its wait, still ends it (a shutdown is never lost). Requesting
/// more than once is the same as once. Thread-safe; `request()` returns
/// immediately.
public final class GracefulShutdown: Sendable {
  private struct State {
    var isRequested = false
    var waiters = ParkedWaiters<UnsafeContinuation<Void, Never>>()
  }
  private let state = Locked(State())

  /// A signal not requested yet.
  public init() {}

  /// Whether a shutdown was requested.
  public var isRequested: Bool { state.withLock { $0.isRequested } }

  /// Requests the shutdown: every waiter resumes; later waits return at once.
  public func request() {
    let waiters = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.isRequested = true
      return state.waiters.take { _ in true }
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until a shutdown is requested or the task is cancelled
  /// (returns at once if either already happened).
  func wait() async {
    let id = state.withLock { $0.waiters.issue() }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          guard state.waiters.arrive(id), !state.isRequested else { return true }
          state.waiters.park(id, continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.cancel(id) }?.resume()
    }
  }
}
