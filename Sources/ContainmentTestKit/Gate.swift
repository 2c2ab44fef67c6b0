import Containment
import ContainmentLocking

/// An async gate for tests: tasks `wait()` until someone `open()`s it, and
/// the test can await "N tasks are waiting" instead of yielding and hoping.
///
/// Once open it stays open. Continuations are resumed outside the lock.
public final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [UnsafeContinuation<Void, Never>] = []
    var watchers: [(count: Int, continuation: UnsafeContinuation<Void, Never>)] = []
  }
  private let state = Locked(State())

  /// A closed gate with nobody waiting.
  public init() {}

  /// Suspends until the gate is open (returns at once if it already is).
  public func wait() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let (resumeSelf, ready) = state.withLock { state -> (Bool, [UnsafeContinuation<Void, Never>]) in
        if state.isOpen { return (true, []) }
        state.waiters.append(continuation)
        let count = state.waiters.count
        let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return (false, ready)
      }
      if resumeSelf { continuation.resume() }
      for watcher in ready { watcher.resume() }
    }
  }

  /// Opens the gate: every waiter resumes, later waits return at once.
  public func open() {
    let waiters = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once at least `count` tasks are waiting (or the gate is open).
  public func waiters(atLeast count: Int) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.isOpen || state.waiters.count >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
