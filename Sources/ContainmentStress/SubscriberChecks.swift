import Containment

/// Where the check of one subscriber (other than a recorder) stands: its
/// elements arrive over the whole run and are checked as the epochs they
/// belong to are, against the recorders' copies (E3–E6).
struct SubscriberCheck: Sendable {
  let role: Subscription.Role
  let controller: Int
  let isTree: Bool
  /// Elements received but not yet checked (they belong to a later epoch).
  var pending: [LifecycleEvent] = []
  var started = false
  var previous: Int?
  var pendingLost = 0
  /// Per controller: the sequence number of the last element seen.
  var lastPosition: [ControllerID: Int] = [:]
  var ended = false
  /// A problem was reported: the rest of this subscriber is not checked.
  var failed = false

  init(_ subscription: Subscription) {
    role = subscription.role
    controller = subscription.controller
    isTree = subscription.isTree
  }
}

/// The recorders' events a subscriber's element can still be, with each one's
/// sequence number in its controller's stream.
///
/// Those of the epoch being checked and the one before, and each
/// controller's newest ones whatever their epoch: an idle subscriber reads
/// its newest elements only after the teardown, and a controller may have
/// been quiet for epochs before it. Bounded: two epochs, and `tailLength`
/// events per controller.
struct RecorderIndex {
  /// More than an idle subscriber keeps (`keepNewest(16)`).
  static let tailLength = 32
  private var current: [EventKey: Int] = [:]
  private var previous: [EventKey: Int] = [:]
  private var tails: [ControllerID: [(key: EventKey, sequence: Int)]] = [:]

  /// Starts the next epoch with its recorders' events.
  mutating func advance(_ events: [[LifecycleEvent]]) {
    previous = current
    current = [:]
    current.reserveCapacity(events.reduce(0) { $0 + $1.count })
    for stream in events {
      for event in stream { current[EventKey(event)] = event.sequenceNumber }
      for event in stream.suffix(Self.tailLength) {
        tails[event.controller, default: []].append((EventKey(event), event.sequenceNumber))
      }
    }
    for controller in tails.keys where tails[controller, default: []].count > Self.tailLength {
      tails[controller, default: []].removeFirst(tails[controller, default: []].count - Self.tailLength)
    }
  }

  subscript(_ key: EventKey) -> Int? {
    current[key] ?? previous[key] ?? tails[key.controller]?.last(where: { $0.key == key })?.sequence
  }
}

extension Checks {
  /// Every subscriber's events are real (equal to the recorder's), in order,
  /// numbered contiguously, with every gap announced by an exact lost count;
  /// `subscribed` first, `terminated` (or `lagged`) last.
  ///
  /// Checks the elements stamped before `limit` (all of them when nil: the run
  /// is over and every stream has ended) and keeps the rest for the next epoch.
  mutating func checkSubscribers(received: [[LifecycleEvent]], before limit: Duration?, index: RecorderIndex) {
    for position in subscribers.indices {
      var subscriber = subscribers[position]
      subscriber.pending += received[position]
      defer { subscribers[position] = subscriber }
      guard !subscriber.failed else {
        subscriber.pending = []
        continue
      }
      var checked = 0
      for event in subscriber.pending {
        // Markers carry no time: they are checked where they stand.
        if let limit, !event.kind.isMarker, event.timestamp >= limit { break }
        checked += 1
        if let problem = accept(event, by: &subscriber, index: index) {
          fail(.subscriber, "\(label(of: subscriber)): \(problem)")
          subscriber.failed = true
          break
        }
      }
      subscriber.pending.removeFirst(min(checked, subscriber.pending.count))
      if subscriber.failed { subscriber.pending = [] }
      guard limit == nil, !subscriber.failed, subscriber.started else { continue }
      if subscriber.role == .lagging || subscriber.role == .idleLagging, !subscriber.ended {
        fail(.subscriber, "\(label(of: subscriber)): a lagging subscriber was neither disconnected nor terminated")
      }
      if [.fast, .slow, .idle].contains(subscriber.role), !subscriber.ended {
        fail(.subscriber, "\(label(of: subscriber)): the stream ended without a terminated event (E6)")
      }
    }
  }

  private func label(of subscriber: SubscriberCheck) -> String {
    "\(subscriber.role.rawValue) \(subscriber.isTree ? "tree " : "")subscriber of \(history.name(subscriber.controller))"
  }

  /// One element; what is wrong with it, if anything.
  private mutating func accept(_ event: LifecycleEvent, by subscriber: inout SubscriberCheck, index: RecorderIndex)
    -> String?
  {
    counts.subscriberEvents += 1
    guard subscriber.started else {
      subscriber.started = true
      guard case .subscribed = event.kind else { return "first element is not the subscribed snapshot (E5)" }
      return nil
    }
    if subscriber.ended { return "\(describe(event)) after the stream's end" }
    switch event.kind {
    case .eventsLost(let count):
      subscriber.pendingLost += count
      counts.lostEvents += count
      counts.lostMarkers += 1
      return nil
    case .lagged:
      counts.laggedDisconnects += 1
      subscriber.ended = true
      return nil
    case .terminated:
      subscriber.ended = true
      return nil
    default:
      break
    }
    if let previous = subscriber.previous, event.sequenceNumber - previous - 1 != subscriber.pendingLost {
      return "sequence \(previous) -> \(event.sequenceNumber) but the lost marker says \(subscriber.pendingLost) (E4)"
    }
    subscriber.pendingLost = 0
    subscriber.previous = event.sequenceNumber
    // A built-in container: no recorder to compare with.
    if history.containerIDs.contains(event.controller) { return nil }
    guard history.indexByID[event.controller] != nil, let position = index[EventKey(event)] else {
      return "received \(describe(event)), which its controller never emitted"
    }
    if let last = subscriber.lastPosition[event.controller], last >= position {
      return "\(describe(event)) arrived out of order (E3)"
    }
    subscriber.lastPosition[event.controller] = position
    if !subscriber.isTree, position != event.sequenceNumber {
      return "\(describe(event)) numbered \(event.sequenceNumber), the recorder's copy \(position)"
    }
    return nil
  }
}
