import Synchronization

/// A multi-subscriber fan-out for lifecycle events.
///
/// The elements are kept once, in a log shared by the subscribers, each with its own cursor and
/// `SubscriberPolicy`: producers never wait for consumers, a slow consumer never delays the
/// others, and a yield touches only the subscribers waiting in `next()` (E4).
///
/// Isolation: all methods are synchronous, non-isolated and safe to call from any thread, task
/// or actor. State is kept in a `Locked` (a pthread mutex that Thread Sanitizer understands); waiting consumers are resumed, and the lost/lagged
/// marker closures are called, only after that lock has been released. The closures passed to
/// `subscribe` (`initial`) and `yield` (`make`) do run under the lock: they must be cheap and
/// must not call back into the broadcaster (that would deadlock).
///
/// Ordering: each subscriber receives elements in yield order. Calls to `yield` and `finish` are
/// linearised by the lock, so concurrent producers produce one total order that every
/// subscriber observes (minus what its policy drops).
///
/// Lifetime: a subscription ends when its sequence returns `nil` (after the final element, after
/// a lagged-marker, or on cancellation) or when its sequence and iterator are both dropped. If
/// the broadcaster itself is deinitialised without `finish(final:)`, subscribers receive what
/// they have buffered and then `nil`, without a final element.
package final class Broadcaster<Element: Broadcastable>: BroadcastingFront {
  let storage: BroadcasterStorage<Element>

  /// Creates an active broadcaster with no subscribers.
  ///
  /// The markers are built by the owner: `lostMarker(count)` stands for `count` elements dropped
  /// by a `keepNewest` subscriber, `laggedMarker()` is the terminal element of a subscriber
  /// disconnected by `disconnectOnLag`. They are called lazily, on the consuming task, when the
  /// subscriber's `next()` reaches the marker, and never under the broadcaster's lock.
  package init(
    lostMarker: @escaping @Sendable (Int) -> Element,
    laggedMarker: @escaping @Sendable () -> Element
  ) {
    storage = BroadcasterStorage(lostMarker: lostMarker, laggedMarker: laggedMarker)
  }

  /// Owns `storage`, which nothing else owns yet.
  init(storage: BroadcasterStorage<Element>) {
    self.storage = storage
  }

  deinit {
    storage.finish(final: nil)
  }
}
