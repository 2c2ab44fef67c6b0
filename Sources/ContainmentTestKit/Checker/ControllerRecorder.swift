import Containment

/// Everything one controller's event stream delivers, cut into segments at
/// the checker's *sentinels*: at a quiescent point the checker calls
/// `endAppearanceTransition()` on the controller, which at rest changes
/// nothing and reports `unbalancedAppearanceTransition(.endWithoutBegin)`
/// outside any transaction (A4). Streams keep a controller's order (E3), so
/// every event before the sentinel belongs to the segment: no timing guess.
///
/// The stream is read by a task on the global executor, outside the
/// interleaving under test; continuations are resumed outside the lock.
final class ControllerRecorder: Sendable {
  private struct State {
    /// Events since the last sentinel.
    var current: [LifecycleEvent] = []
    /// Segments closed by a sentinel, not yet taken.
    var closed: [[LifecycleEvent]] = []
    var ended = false
    /// Markers a recorder must never see (its buffer is large).
    var lost = 0
    var waiter: UnsafeContinuation<Void, Never>?
  }
  private let state = Locked(State())
  private let reader: Task<Void, Never>

  /// Subscribes now: every event after this call is recorded.
  init(_ controller: any ViewController) {
    let events = controller.events(policy: .keepNewest(1 << 22))
    let state = self.state
    reader = Task(executorPreference: globalConcurrentExecutor) {
      for await event in events {
        let wake = state.withLock { state -> UnsafeContinuation<Void, Never>? in
          switch event.kind {
          case .subscribed:
            return nil
          case .eventsLost(let count):
            state.lost += count
            return nil
          case .terminated, .lagged:
            state.ended = true
          default:
            if ControllerRecorder.isSentinel(event) {
              state.closed.append(state.current)
              state.current = []
            } else {
              state.current.append(event)
              return nil
            }
          }
          defer { state.waiter = nil }
          return state.waiter
        }
        wake?.resume()
      }
      let wake = state.withLock { state -> UnsafeContinuation<Void, Never>? in
        state.ended = true
        defer { state.waiter = nil }
        return state.waiter
      }
      wake?.resume()
    }
  }

  deinit { reader.cancel() }

  /// What a sentinel looks like: an `end` with nothing begun, or refused on a
  /// torn-down controller, outside any transaction.
  static func isSentinel(_ event: LifecycleEvent) -> Bool {
    guard event.transaction == nil else { return false }
    switch event.kind {
    case .unbalancedAppearanceTransition(.endWithoutBegin), .callIgnored(.tornDown): return true
    default: return false
    }
  }

  /// The events up to the next sentinel (call after sending one), or
  /// everything left if the stream ended first.
  func segment() async -> [LifecycleEvent] {
    while true {
      let taken = state.withLock { state -> [LifecycleEvent]? in
        if !state.closed.isEmpty { return state.closed.removeFirst() }
        if state.ended {
          defer { state.current = [] }
          return state.current
        }
        return nil
      }
      if let taken { return taken }
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          if !state.closed.isEmpty || state.ended { return true }
          state.waiter = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    }
  }

  /// Events the stream reported lost (never expected: the buffer is large).
  var lost: Int { state.withLock { $0.lost } }

  /// Stops reading.
  func stop() { reader.cancel() }
}
