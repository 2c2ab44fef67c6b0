import Containment
import ContainmentLocking

/// Holds every task of a parallel figure until all have started, then lets
/// them go together, so that task creation is not timed and no task runs
/// alone at the start.
final class StartGate: Sendable {
  private struct State {
    var arrived = 0
    var isOpen = false
    var waiting: [UnsafeContinuation<Void, Never>] = []
    var allArrived: UnsafeContinuation<Void, Never>?
  }

  private let parties: Int
  private let state = Locked(State())

  init(parties: Int) { self.parties = parties }

  /// Called by each task: counts it in and waits for ``open()``.
  func arriveAndWait() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let (resumeSelf, coordinator) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
        state.arrived += 1
        var coordinator: UnsafeContinuation<Void, Never>?
        if state.arrived == parties {
          coordinator = state.allArrived
          state.allArrived = nil
        }
        if state.isOpen { return (true, coordinator) }
        state.waiting.append(continuation)
        return (false, coordinator)
      }
      coordinator?.resume()
      if resumeSelf { continuation.resume() }
    }
  }

  /// Called by the coordinator: returns once every party has arrived.
  func waitUntilAllArrived() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.arrived == parties { return true }
        state.allArrived = continuation
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Releases every waiting party (and any that arrives later).
  func open() {
    let waiting = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiting.removeAll() }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}
