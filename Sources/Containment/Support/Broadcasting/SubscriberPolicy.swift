import Synchronization

/// How a subscriber's buffer of undelivered elements behaves when the subscriber reads more
/// slowly than the broadcaster yields.
///
/// A policy only concerns elements the subscriber has not consumed yet. A subscriber suspended in
/// `next()` is handed each new element directly. The snapshot a subscription starts with, the
/// markers and the final element never count against the capacity and are never dropped.
///
/// The elements are kept once for all the subscribers of a stream, not per subscriber: emitting
/// an event costs the same however many subscribers are not reading, and a subscriber's policy
/// is applied when it reads (or, for ``disconnectOnLag(_:)``, by the emission that puts it over
/// its capacity).
public struct SubscriberPolicy: Sendable, Hashable {
  enum Strategy: Sendable, Hashable {
    case keepNewest
    case disconnectOnLag
  }

  let strategy: Strategy

  /// Maximum number of undelivered elements kept for the subscriber.
  ///
  /// Always at least 1: a policy cannot hold a smaller one.
  public let capacity: Int

  /// Clamps `capacity` to at least 1: a buffer of zero (or fewer) elements could hold nothing,
  /// and a subscriber's choice must never stop the process (§8).
  private init(strategy: Strategy, capacity: Int) {
    self.strategy = strategy
    self.capacity = max(1, capacity)
  }

  /// Keep the newest `capacity` undelivered elements; when older ones are dropped, the
  /// subscriber's next element is a lost-marker carrying the exact number dropped since its last
  /// delivery, then the retained ones in order.
  ///
  /// The subscription's snapshot is never dropped: it stays the first element, outside the
  /// `capacity` (E5).
  ///
  /// Dropping never blocks the producer: what is dropped is counted when the subscriber reads. A
  /// `capacity` below 1 is raised to 1 (``capacity`` reads the value in effect).
  public static func keepNewest(_ capacity: Int) -> SubscriberPolicy {
    SubscriberPolicy(strategy: .keepNewest, capacity: capacity)
  }

  /// When more than `capacity` elements are undelivered, the subscriber is disconnected:
  /// everything buffered is discarded, it receives one terminal lagged-marker (after its
  /// snapshot, if it had not read that yet), then its sequence finishes.
  ///
  /// The disconnection happens inside the `Broadcaster.yield` that overflows the buffer: from then
  /// on the subscriber no longer counts in `subscriberCount` and does not receive the final
  /// element of `Broadcaster.finish(final:)`. A `capacity` below 1 is raised to 1 (``capacity``
  /// reads the value in effect).
  public static func disconnectOnLag(_ capacity: Int) -> SubscriberPolicy {
    SubscriberPolicy(strategy: .disconnectOnLag, capacity: capacity)
  }

  /// `.keepNewest(1024)`: a generous buffer that never disconnects; a consumer that falls more
  /// than 1024 elements behind sees a lost-marker.
  public static var `default`: SubscriberPolicy { .keepNewest(1024) }
}
