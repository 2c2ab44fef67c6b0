import Synchronization

/// Where a ``ContainmentService`` is in its life — one explicit state, not
/// flags.
///
/// Readiness waits race against ``stopped()``.
///
/// Thread-safe: the state lives in a mutex; continuations are resumed after
/// it is released.
final class ServicePhase: Sendable {
  enum Phase {
    /// ``ContainmentService/run()`` has not started; nothing asked it to stop.
    case initial
    /// A shutdown was asked for before ``ContainmentService/run()`` started
    /// (it is remembered: the run will tear the tree down at once).
    case stopRequested
    case running
    /// A graceful shutdown or a cancellation was asked for while running.
    case stopping
    /// The tree was torn down while running, by something else than the
    /// service (its fault policy, or `Window.tearDown()`).
    case treeTornDown
    /// ``ContainmentService/run()`` has returned or thrown.
    case finished

    var isStopped: Bool {
      switch self {
      case .initial, .running: false
      case .stopRequested, .stopping, .treeTornDown, .finished: true
      }
    }
  }

  /// A waiter of ``stopped()``, from its id's issue until it resumes.
  private enum Waiter {
    /// Issued; its continuation is not stored yet.
    case issued
    /// Cancelled before its continuation was stored: it resumes on arrival.
    case cancelled
    case parked(CheckedContinuation<Void, Never>)
  }

  private struct State {
    var phase = Phase.initial
    var waiters: [UInt64: Waiter] = [:]
    var nextID: UInt64 = 0

    /// Sets `phase`; the parked waiters to resume if the service is now stopped.
    mutating func enter(_ phase: Phase) -> [CheckedContinuation<Void, Never>] {
      self.phase = phase
      guard phase.isStopped else { return [] }
      var parked: [CheckedContinuation<Void, Never>] = []
      waiters = waiters.filter { _, waiter in
        guard case .parked(let continuation) = waiter else { return true }
        parked.append(continuation)
        return false
      }
      return parked
    }
  }

  private let state = Mutex(State())

  /// ``ContainmentService/run()`` starts: throws
  /// ``ContainmentServiceError/alreadyStarted`` if it started before.
  func start() throws(ContainmentServiceError) {
    let started = state.withLock { state -> Bool in
      switch state.phase {
      case .initial: state.phase = .running
      case .stopRequested: state.phase = .stopping
      case .running, .stopping, .treeTornDown, .finished: return false
      }
      return true
    }
    if !started { throw .alreadyStarted }
  }

  /// A graceful shutdown or a cancellation was asked for.
  func stop() {
    let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      switch state.phase {
      case .initial: state.enter(.stopRequested)
      case .running: state.enter(.stopping)
      case .stopRequested, .stopping, .treeTornDown, .finished: []
      }
    }
    for continuation in resumed { continuation.resume() }
  }

  /// The tree's streams ended.
  ///
  /// Returns true if the service was running (no
  /// stop asked for): the tree was torn down by something else.
  func treeTornDown() -> Bool {
    let (wasRunning, resumed) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
      guard state.phase == .running else { return (false, []) }
      return (true, state.enter(.treeTornDown))
    }
    for continuation in resumed { continuation.resume() }
    return wasRunning
  }

  /// Whether the tree was torn down by something else than the service.
  var isTreeTornDown: Bool { state.withLock { $0.phase == .treeTornDown } }

  /// ``ContainmentService/run()`` has returned or thrown.
  func finish() {
    for continuation in state.withLock({ $0.enter(.finished) }) { continuation.resume() }
  }

  /// Suspends until the service is stopped — a stop was asked for or the run
  /// ended — (returns at once if it is), or until the calling task is cancelled.
  func stopped() async {
    let id = state.withLock { state -> UInt64 in
      defer { state.nextID += 1 }
      state.waiters[state.nextID] = .issued
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          guard !state.phase.isStopped, case .issued = state.waiters[id] else {
            state.waiters[id] = nil
            return true
          }
          state.waiters[id] = .parked(continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let parked = state.withLock { state -> CheckedContinuation<Void, Never>? in
        switch state.waiters[id] {
        case .issued:
          state.waiters[id] = .cancelled
          return nil
        case .parked(let continuation):
          state.waiters[id] = nil
          return continuation
        case .cancelled, nil:
          return nil
        }
      }
      parked?.resume()
    }
  }
}
