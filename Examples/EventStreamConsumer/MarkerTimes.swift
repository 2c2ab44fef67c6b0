import Containment

/// Gives the stream's markers the time they stand for, so that the timeline
/// never goes backwards.
///
/// The runtime stamps an event when it emits it, on the tree's clock; the
/// markers it makes for one subscriber (`subscribed`, `eventsLost`,
/// `lagged`, `terminated`: sequence number -1) carry a zero timestamp
/// instead. A marker stamped zero gets, on the same clock:
/// - `subscribed`: the time of the subscription;
/// - `eventsLost`: the time of the last event before the gap;
/// - `lagged`, `terminated`: the time the consumer received it (the stream
///   delivers it after every event stamped earlier).
struct MarkerTimes {
  private let environment: ContainmentEnvironment
  private let subscription: Duration
  private var latest: Duration

  /// Call right after subscribing, with the tree's environment.
  init(subscribedOn environment: ContainmentEnvironment) {
    self.environment = environment
    subscription = environment.elapsed()
    latest = subscription
  }

  /// `event`, with its time if it is a marker stamped zero.
  mutating func stamped(_ event: LifecycleEvent) -> LifecycleEvent {
    var event = event
    if event.sequenceNumber == -1, event.timestamp == .zero {
      switch event.kind {
      case .subscribed: event.timestamp = subscription
      case .eventsLost: event.timestamp = latest
      default: event.timestamp = max(latest, environment.elapsed())
      }
    }
    latest = max(latest, event.timestamp)
    return event
  }
}
