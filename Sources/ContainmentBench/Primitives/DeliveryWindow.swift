import Containment
import ContainmentLocking

/// Flow control for the stream figures: the producer yields `size` elements,
/// then waits until every consumer has read them before yielding more.
///
/// This keeps every buffer below `size` (so a subscriber with the runtime's
/// default policy never drops anything), keeps the run time linear in the
/// element count, and is applied identically to the raw `AsyncStream` and to
/// the runtime's broadcaster, so their ratio is like for like.
final class DeliveryWindow: Sendable {
  /// Elements per window, unless told otherwise.
  static let size = 256
  /// Elements per window of this run.
  let size: Int

  private struct State {
    var arrivals = 0
    var waiter: (target: Int, continuation: UnsafeContinuation<Void, Never>)?
  }

  private let consumers: Int
  private let state = Locked(State())

  init(consumers: Int, size: Int = DeliveryWindow.size) {
    self.consumers = consumers
    self.size = size
  }

  /// Called by a consumer each time it has read `size` more elements (and
  /// once more for a partial last window).
  func consumerCaughtUp() {
    let continuation = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      state.arrivals += 1
      guard let waiter = state.waiter, state.arrivals >= waiter.target else { return nil }
      state.waiter = nil
      return waiter.continuation
    }
    continuation?.resume()
  }

  /// Called by the producer after window number `window` (1-based): returns
  /// once every consumer has read it.
  func waitForConsumers(window: Int) async {
    let target = window * consumers
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.arrivals >= target { return true }
        state.waiter = (target, continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Yields `count` elements with `yield`, one window at a time.
  func produce(_ count: Int, _ yield: (Int) -> Void) async {
    var produced = 0
    var window = 0
    while produced < count {
      let end = min(count, produced + size)
      for index in produced..<end { yield(index) }
      produced = end
      window += 1
      await waitForConsumers(window: window)
    }
  }

  /// For consumers: true when having read `received` elements of `count`
  /// completes a window.
  func completesWindow(_ received: Int, of count: Int) -> Bool {
    received % size == 0 || received == count
  }
}
