import Synchronization

/// The elements one subscriber receives from a `Broadcaster`, in yield order, possibly preceded
/// by its `initial` element, interleaved with lost-markers (`keepNewest`), and ended by the
/// final element then `nil`, or by a lagged-marker then `nil` (`disconnectOnLag`).
///
/// A value of this type represents ONE subscription: the first `makeAsyncIterator()` receives
/// the elements; any later iterator (including from a copy of the value) returns `nil`
/// immediately. The subscription is removed from the broadcaster when the consuming task is
/// cancelled, when `nil` has been returned, or when this sequence and its iterator have both
/// been dropped.
///
/// Sendable: the sequence may be created in one task and iterated in another.
struct BroadcastSequence<Element: Broadcastable>: AsyncSequence, Sendable {
  /// A broadcast sequence never throws.
  typealias Failure = Never

  let subscription: BroadcastSubscription<Element>

  init(subscription: BroadcastSubscription<Element>) {
    self.subscription = subscription
  }

  /// Iterates the subscription's elements.
  ///
  /// Use it from a single task at a time: calling `next()` concurrently on copies of the same
  /// iterator is a programming error and traps.
  struct AsyncIterator: AsyncIteratorProtocol {
    /// A broadcast sequence never throws.
    typealias Failure = Never

    var subscription: BroadcastSubscription<Element>?

    /// The next element, suspending until one is yielded or the broadcaster finishes.
    ///
    /// Isolation: non-isolated. Ordering: yield order, per the sequence's documentation.
    /// Cancellation: if the calling task is cancelled (before or during the call), returns `nil`
    /// and ends the subscription (it is removed from the broadcaster, buffered elements are
    /// discarded). After returning `nil` once, always returns `nil`.
    mutating func next() async -> Element? {
      await next(isolation: nil)
    }

    /// Same as `next()`, but stays on the caller's actor when suspending (no executor hop).
    mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      guard let subscription else { return nil }
      let element = await subscription.storage.next(id: subscription.id, isolation: actor)
      if element == nil { self.subscription = nil }
      return element
    }
  }

  /// Returns the iterator of this subscription.
  ///
  /// Only the first call receives elements; later calls return an iterator whose `next()`
  /// returns `nil` immediately.
  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(subscription: subscription.claim() ? subscription : nil)
  }
}
