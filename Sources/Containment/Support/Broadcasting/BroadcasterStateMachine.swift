// The pure state machine behind `Broadcaster`, modelled on swift-async-algorithms'
// `ChannelStateMachine`: mutated only under the owner's lock, its mutations return actions
// (continuations to resume) that the owner performs, building lost/lagged markers, once the lock
// is released; nothing here suspends, resumes or locks. `initial` (in `subscribe`) and `make` (in
// `yield`) run under the lock by design (a snapshot then live events with no gap; consistent
// numbering): cheap, never calling back.

/// State of a `Broadcaster`: one shared log of the elements some subscriber may still read, a
/// cursor per subscriber, the subscribers suspended in `next()`, and its termination.
///
/// Not thread-safe by itself; `BroadcasterStorage` keeps it inside a `Locked`.
///
/// A yield appends to the log once and resumes only the subscribers that wait; a subscriber that
/// is not reading costs it nothing. What a subscriber's policy drops is decided when it reads:
/// more than `capacity` elements behind its cursor are counted in a lost-marker and skipped.
///
/// The log is emptied whenever every subscriber has read it all (while everyone waits, an element
/// goes straight to the waiters). Nobody reads further back than its capacity from the end, so
/// each yield drops what lies before the widest capacity, visiting no one. Below that, it is
/// trimmed to what some subscriber can still read (the earliest, over the subscribers, of the
/// later of its cursor and its capacity back from the end) once it has grown by max(64, its
/// length, subscribers/8) since the last trim: at most 8 subscriber visits per element, and at
/// most twice what the last trim kept, plus 64 or subscribers/8.
///
/// A `disconnectOnLag` subscriber is disconnected by the yield that puts it over its capacity:
/// each such subscriber is filed under the log position at which that happens, and a yield
/// looks only at the ones filed under its position.
struct BroadcasterStateMachine<Element: Broadcastable>: Sendable {
  typealias Continuation = UnsafeContinuation<Element?, Never>

  /// What the owner reports to each new subscriber (``Broadcastable``):
  /// changed only with the lock held, together with the numbering.
  var reported = Element.initialReported

  private struct Subscriber: Sendable {
    let policy: SubscriberPolicy
    /// Log position of the next element this subscriber reads.
    var cursor: Int
    /// The snapshot `subscribe` took, until it is delivered: always the first element (E5),
    /// whatever the policy drops meanwhile.
    var initial: Element?
    /// For `disconnectOnLag`: the log end under which its lag check is filed.
    var lagCheck = 0
  }

  private enum Phase: Sendable {
    case active
    /// Terminated. `final == nil` means the owner went away without calling `finish(final:)`;
    /// subscribers then simply end after the elements they have not read.
    case finished(final: Final)
  }

  /// The final element, out of line: a stream that never ends keeps one word for it.
  private final class Final: Sendable {
    let element: Element?
    init(_ element: Element?) { self.element = element }
  }

  private var phase: Phase = .active
  /// Live subscribers while active; subscribers still draining towards `final` once finished.
  private var subscribers: [Int: Subscriber] = [:]
  /// The subscribers suspended in `next()` (each has read the whole log).
  private var waiters: [Int: Continuation] = [:]
  /// Subscribers disconnected for lagging whose lagged-marker has not been delivered yet, each
  /// with its snapshot if that was not delivered either (it comes first).
  private var lagged: [Int: Element?] = [:]
  /// The elements some subscriber may still read, oldest first, from position `logStart`.
  private var log = BroadcastBuffer<Element>()
  private var logStart = 0
  /// Subscribers whose cursor is at the log's end (all of them: the log is emptied).
  private var caughtUp = 0
  /// The log's length at which it is trimmed next.
  private var trimAt: UInt32 = 64
  /// At least the largest capacity of a live subscriber (exact after a trim); 32 bits, one word.
  private var widestCapacity: UInt32 = 0
  /// `disconnectOnLag` subscribers filed under the log end that would put them over capacity.
  private var lagChecks: [Int: [Int]] = [:]
  private var nextSubscriberID = 0
  /// Number of elements yielded so far (markers and initial elements excluded).
  private(set) var yieldedCount = 0

  private var logEnd: Int { logStart + log.count }

  var isFinished: Bool {
    if case .finished = phase { return true }
    return false
  }

  /// Subscribers that will receive future yields.
  var liveSubscriberCount: Int {
    isFinished ? 0 : subscribers.count
  }

  /// Subscribers currently suspended in `next()`.
  var waitingSubscriberCount: Int { waiters.count }

  /// Elements kept in the shared log (tests).
  var loggedCount: Int { log.count }

  // MARK: subscribe

  /// Registers a subscriber and returns its id.
  ///
  /// `initial` is called only while active, and its element (if any) is the subscriber's first
  /// element, never dropped by its policy.
  mutating func subscribe(policy: SubscriberPolicy, initial: () -> Element?) -> Int {
    let id = nextSubscriberID
    nextSubscriberID += 1
    var subscriber = Subscriber(policy: policy, cursor: logEnd)
    if case .active = phase { subscriber.initial = initial() }
    // When finished, the entry is a drainer at the end of the log: its first `next()` delivers
    // the final element and removes it.
    subscribers[id] = subscriber
    caughtUp += 1
    widestCapacity = Swift.max(widestCapacity, UInt32(clamping: policy.capacity))
    if case .disconnectOnLag = policy.strategy { fileLagCheck(id) }
    return id
  }

  // MARK: yield

  /// When nobody would receive an element: advances the numbering as a
  /// yield would, runs `body`, and returns true.
  ///
  /// Otherwise changes nothing and returns false (the caller then builds the
  /// element and yields it).
  mutating func advanceIfUnobserved(_ body: (inout Element.Reported) -> Void) -> Bool {
    switch phase {
    case .finished: return true
    case .active:
      guard subscribers.isEmpty else { return false }
      yieldedCount &+= 1
      body(&reported)
      return true
    }
  }

  /// Whether an element yielded now would reach nobody and change nothing
  /// else: active, and nobody subscribed.
  ///
  /// Then the numbering may advance without this state
  /// (``BroadcasterStorage``).
  var admitsUnlockedAdvance: Bool {
    if case .active = phase { return subscribers.isEmpty }
    return false
  }

  /// Takes in `count` elements numbered while nobody subscribed, without
  /// this state (``BroadcasterStorage``).
  mutating func absorbUnlockedAdvances(_ count: Int) {
    yieldedCount &+= count
  }

  /// Numbers and logs the element `make` builds; when subscribers wait,
  /// returns them and sets `handed` to the element they get.
  mutating func yield(
    _ make: (_ sequenceNumber: Int, _ reported: inout Element.Reported) -> Element, handing handed: inout Element?
  ) -> YieldAction {
    guard case .active = phase else { return .none }
    let element = make(yieldedCount, &reported)
    yieldedCount &+= 1
    guard !subscribers.isEmpty else { return .none }
    guard !waiters.isEmpty else {
      // Nobody waits (subscribers that read in bursts, or not at all): the
      // log takes the element itself, without a copy.
      log.append(consume element)
      caughtUp = 0
      disconnectLagging(at: logEnd)
      settleLog()
      return .none
    }

    if waiters.count == subscribers.count, log.isEmpty {
      // Everyone waits, so everyone has read the whole log: the element goes to them and the
      // log only moves on.
      logStart += 1
      handed = consume element
    } else {
      log.append(element)
      handed = consume element
    }
    let end = logEnd
    let action: YieldAction
    if waiters.count == 1, let (id, waiter) = waiters.first {
      waiters.removeAll(keepingCapacity: true)
      subscribers[id]?.cursor = end
      action = .resumeOne(waiter)
    } else {
      action = .resume(resumeWaiters(at: end))
    }
    // Only the resumed subscribers are at the end of the log now.
    caughtUp = resumedCount(action)
    disconnectLagging(at: end)
    settleLog()
    return action
  }

  private func resumedCount(_ action: YieldAction) -> Int {
    switch action {
    case .none: 0
    case .resumeOne: 1
    case .resume(let continuations): continuations.count
    }
  }

  /// Appends `elements` in order for every live subscriber.
  ///
  /// A waiting subscriber is handed the first element directly and reads the rest from the
  /// log, so each subscriber is resumed at most once.
  mutating func yield(contentsOf elements: [Element]) -> YieldBatchAction {
    guard case .active = phase, let first = elements.first else { return .none }
    yieldedCount &+= elements.count
    guard !subscribers.isEmpty else { return .none }

    let firstPosition = logEnd
    for element in elements { log.append(element) }
    let resumptions = resumeWaiters(at: firstPosition + 1).map {
      Resumption(continuation: $0, element: first)
    }
    caughtUp = elements.count == 1 ? resumptions.count : 0
    for end in (firstPosition + 1)...logEnd { disconnectLagging(at: end) }
    settleLog()
    return resumptions.isEmpty ? .none : .resume(resumptions)
  }

  /// Takes every waiter, moving its cursor to `position`.
  private mutating func resumeWaiters(at position: Int) -> [Continuation] {
    var continuations: [Continuation] = []
    continuations.reserveCapacity(waiters.count)
    for (id, waiter) in waiters {
      continuations.append(waiter)
      subscribers[id]?.cursor = position
    }
    waiters.removeAll(keepingCapacity: true)
    return continuations
  }

  // MARK: lag and the log's length

  private mutating func fileLagCheck(_ id: Int) {
    guard let subscriber = subscribers[id] else { return }
    let end = subscriber.cursor + subscriber.policy.capacity + 1
    lagChecks[end, default: []].append(id)
    subscribers[id]?.lagCheck = end
  }

  /// Disconnects the `disconnectOnLag` subscribers that the log's end reaching `end` puts over
  /// their capacity, and files again those that read meanwhile.
  private mutating func disconnectLagging(at end: Int) {
    guard !lagChecks.isEmpty, let ids = lagChecks.removeValue(forKey: end) else { return }
    for id in ids {
      guard let subscriber = subscribers[id] else { continue }
      if end - subscriber.cursor > subscriber.policy.capacity {
        remove(id)
        lagged[id] = subscriber.initial
      } else {
        fileLagCheck(id)
      }
    }
  }

  /// Empties the log when every subscriber has read it; otherwise, once it has grown enough
  /// since the last trim, drops what no subscriber can still read.
  private mutating func settleLog() {
    guard !log.isEmpty else { return }
    if caughtUp == subscribers.count {
      logStart = logEnd
      log.removeAll()
      trimAt = UInt32(clamping: Swift.max(64, subscribers.count / 8))
      return
    }
    let end = logEnd
    // Nobody reads further back than the widest capacity: no visit needed.
    while logStart < end - Int(widestCapacity) {
      log.popFirst()
      logStart += 1
    }
    guard log.count >= Int(trimAt) else { return }
    var start = end
    var widest = 0
    for subscriber in subscribers.values {
      start = Swift.min(start, Swift.max(subscriber.cursor, end - subscriber.policy.capacity))
      widest = Swift.max(widest, subscriber.policy.capacity)
    }
    widestCapacity = UInt32(clamping: widest)
    while logStart < start {
      log.popFirst()
      logStart += 1
    }
    trimAt = UInt32(clamping: log.count + Swift.max(64, log.count, subscribers.count / 8))
  }

  /// Removes a subscriber's entry and what it counted in.
  @discardableResult
  private mutating func remove(_ id: Int) -> Subscriber? {
    guard let subscriber = subscribers.removeValue(forKey: id) else { return nil }
    waiters.removeValue(forKey: id)
    if case .disconnectOnLag = subscriber.policy.strategy, var filed = lagChecks[subscriber.lagCheck] {
      filed.removeAll { $0 == id }
      lagChecks[subscriber.lagCheck] = filed.isEmpty ? nil : filed
    }
    if subscriber.cursor == logEnd { caughtUp -= 1 }
    if subscribers.isEmpty { lagChecks.removeAll() }
    settleLog()
    return subscriber
  }

  // MARK: finish

  /// Terminates once; later calls return `.none`.
  ///
  /// Waiting subscribers get `final` now and are removed; the others read what they have not
  /// read yet and get `final` after it.
  mutating func finish(final: Element?) -> FinishAction {
    guard case .active = phase else { return .none }
    phase = .finished(final: Final(final))
    lagChecks.removeAll()

    let waiting = waiters
    for id in waiting.keys { remove(id) }
    return waiting.isEmpty ? .none : .resume(Array(waiting.values), final: final)
  }

  // MARK: next

  /// Fast path of `next()`: delivers what is available without suspending, or asks to suspend.
  mutating func next(id: Int) -> NextAction {
    if let delivery = takeAvailable(id: id) { return .deliver(delivery) }
    return .suspend
  }

  /// Slow path of `next()`, called with the continuation.
  ///
  /// State may have changed since `next(id:)` (the lock was released in between), so everything is
  /// checked again. A subscriber that was cancelled or removed meanwhile no longer exists, so the
  /// late registration fails immediately with `.end` (the async-algorithms "cancelled placeholder"
  /// race, keyed by never-reused ids).
  mutating func nextSuspended(id: Int, continuation: Continuation) -> NextSuspendedAction {
    if let delivery = takeAvailable(id: id) { return .resume(delivery) }
    // takeAvailable returns nil only for an existing, active subscriber that has read it all.
    precondition(
      waiters.updateValue(continuation, forKey: id) == nil,
      "BroadcastSequence.AsyncIterator.next() called concurrently on the same subscription"
    )
    return .none
  }

  private mutating func takeAvailable(id: Int) -> Delivery? {
    if !lagged.isEmpty, let pending = lagged[id] {
      if let initial = pending {
        lagged[id] = .some(nil)
        return .element(initial)
      }
      lagged.removeValue(forKey: id)
      return .lagged
    }
    guard let index = subscribers.index(forKey: id) else { return .end }
    if let initial = subscribers.values[index].initial {
      subscribers.values[index].initial = nil
      return .element(initial)
    }
    let end = logEnd
    let cursor = subscribers.values[index].cursor
    let capacity = subscribers.values[index].policy.capacity
    let unread = end - cursor
    if unread > capacity {
      // Only `keepNewest` gets here: a `disconnectOnLag` subscriber is disconnected by the yield
      // that puts it over its capacity.
      subscribers.values[index].cursor = end - capacity
      return .lost(count: unread - capacity)
    }
    if unread > 0, let element = log[cursor - logStart] {
      subscribers.values[index].cursor = cursor + 1
      if cursor + 1 == end {
        caughtUp += 1
        settleLog()
      }
      return .element(element)
    }
    if case .finished(let final) = phase {
      let final = final.element
      remove(id)
      return final.map(Delivery.element) ?? .end
    }
    return nil
  }

  // MARK: cancel

  /// Removes a subscriber (task cancelled, or iterator and sequence dropped).
  ///
  /// Idempotent.
  mutating func cancel(id: Int) -> CancelAction {
    if lagged.removeValue(forKey: id) != nil { return .none }
    let waiter = waiters[id]
    guard remove(id) != nil else { return .none }
    return waiter.map(CancelAction.resume) ?? .none
  }
}
