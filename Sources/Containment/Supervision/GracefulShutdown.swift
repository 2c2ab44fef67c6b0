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
    var nextID = 0
    var waiters: [Int: UnsafeContinuation<Void, Never>] = [:]
    /// Issued ids not registered yet whose task was cancelled first.
    var cancelled: Set<Int> = []
    var unregistered: Set<Int> = []
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
      defer { state.waiters.removeAll() }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until a shutdown is requested or the task is cancelled
  /// (returns at once if either already happened).
  func wait() async {
    let id = state.withLock { state -> Int in
      state.nextID += 1
      state.unregistered.insert(state.nextID)
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          state.unregistered.remove(id)
          if state.isRequested || state.cancelled.remove(id) != nil { return true }
          state.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
        if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
        if state.unregistered.contains(id) { state.cancelled.insert(id) }
        return nil
      }
      waiter?.resume()
    }
  }
}
