// The pure state machine behind `Broadcaster`.
//
// Modelled on apple/swift-async-algorithms' `ChannelStateMachine`: a plain value type that is
// only ever mutated while the owner holds a lock. Every mutating method returns an action value
// describing which continuations must be resumed and with what; the owner performs those
// resumptions (and builds lost/lagged markers, which is user code) only AFTER the lock has been
// released. Nothing in this file suspends, resumes a continuation, or takes a lock.
//
// The two closures that do run inside this type (`initial` in `subscribe` and `make` in `yield`)
// run under the owner's lock by design; that is what makes "snapshot, then live events with no
// gap" and consistent sequence numbering possible. They are documented as cheap and must not
// call back into the broadcaster.

/// A growable FIFO ring buffer: amortised O(1) `append`, O(1) `popFirst`, no element shifting.
struct BroadcastBuffer<Element> {
  private var slots: ContiguousArray<Element?> = []
  private var head = 0
  /// Number of elements currently stored.
  private(set) var count = 0

  init() {}

  var isEmpty: Bool { count == 0 }

  /// Appends at the tail, growing (doubling) the storage when full.
  mutating func append(_ element: Element) {
    if count == slots.count { grow() }
    var tail = head + count
    if tail >= slots.count { tail -= slots.count }
    slots[tail] = element
    count += 1
  }

  /// Removes and returns the oldest element, or `nil` when empty.
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = slots[head]
    slots[head] = nil
    count -= 1
    head = count == 0 ? 0 : (head + 1 == slots.count ? 0 : head + 1)
    return element
  }

  /// Discards every element and releases the storage.
  mutating func removeAll() {
    slots = []
    head = 0
    count = 0
  }

  private mutating func grow() {
    let newCapacity = Swift.max(4, slots.count * 2)
    var newSlots = ContiguousArray<Element?>()
    newSlots.reserveCapacity(newCapacity)
    for offset in 0..<count {
      var index = head + offset
      if index >= slots.count { index -= slots.count }
      newSlots.append(slots[index])
    }
    newSlots.append(contentsOf: repeatElement(nil, count: newCapacity - count))
    slots = newSlots
    head = 0
  }
}

extension BroadcastBuffer: Sendable where Element: Sendable {}

/// State of a `Broadcaster`: its subscribers, their buffers and waiting continuations, and its
/// termination. Not thread-safe by itself; `BroadcasterStorage` keeps it inside a `Locked`.
struct BroadcasterStateMachine<Element: Broadcastable>: Sendable {
  typealias Continuation = UnsafeContinuation<Element?, Never>

  /// What the owner reports to each new subscriber (``Broadcastable``):
  /// changed only with the lock held, together with the numbering.
  var reported = Element.initialReported

  /// What a subscriber's `next()` produces. Markers are described, not built: the storage builds
  /// them with the owner's closures once the lock is released.
  enum Delivery: Sendable {
    case element(Element)
    /// A lost-marker for `count` elements dropped since the subscriber's last delivery.
    case lost(count: Int)
    /// The terminal lagged-marker of a subscriber disconnected by `disconnectOnLag`.
    case lagged
    /// End of the sequence (`nil`).
    case end
  }

  /// One continuation to resume with one element.
  struct Resumption: Sendable {
    let continuation: Continuation
    let element: Element
  }

  private struct Subscriber: Sendable {
    let policy: SubscriberPolicy
    var buffer = BroadcastBuffer<Element>()
    /// Elements dropped (keepNewest) since this subscriber's last delivery.
    var dropped = 0
    /// The snapshot `subscribe` took, until it is delivered: always the first element (E5),
    /// whatever the policy drops from `buffer` meanwhile.
    var initial: Element?
    /// The subscriber's suspended `next()`, if any. When set, `initial` is nil, `buffer` is
    /// empty and `dropped == 0`: new elements are handed over directly instead of being buffered.
    var waiter: Continuation?

    init(policy: SubscriberPolicy) {
      self.policy = policy
    }

    /// Buffers `element` according to the policy. Returns `false` when the subscriber must be
    /// disconnected for lagging (its buffer has then been discarded).
    mutating func enqueue(_ element: Element) -> Bool {
      if buffer.count >= policy.capacity {
        switch policy.strategy {
        case .keepNewest:
          _ = buffer.popFirst()
          dropped += 1
        case .disconnectOnLag:
          buffer.removeAll()
          return false
        }
      }
      buffer.append(element)
      return true
    }
  }

  private enum Phase: Sendable {
    case active
    /// Terminated. `final == nil` means the owner went away without calling `finish(final:)`;
    /// subscribers then simply end after their buffered elements.
    case finished(final: Element?)
  }

  private var phase: Phase = .active
  /// Live subscribers while active; subscribers still draining towards `final` once finished.
  private var subscribers: [Int: Subscriber] = [:]
  /// Subscribers disconnected for lagging whose lagged-marker has not been delivered yet, each
  /// with its snapshot if that was not delivered either (it comes first).
  private var lagged: [Int: Element?] = [:]
  private var nextSubscriberID = 0
  /// Number of elements yielded so far (markers and initial elements excluded).
  private(set) var yieldedCount = 0

  init() {}

  var isFinished: Bool {
    if case .finished = phase { return true }
    return false
  }

  /// Subscribers that will receive future yields.
  var liveSubscriberCount: Int {
    isFinished ? 0 : subscribers.count
  }

  /// Subscribers currently suspended in `next()`. O(subscribers); diagnostics and tests only.
  var waitingSubscriberCount: Int {
    subscribers.values.reduce(0) { $0 + ($1.waiter == nil ? 0 : 1) }
  }

  // MARK: subscribe

  /// Registers a subscriber and returns its id. `initial` is called only while active, and its
  /// element (if any) is the subscriber's first element, never dropped by its policy.
  mutating func subscribe(policy: SubscriberPolicy, initial: () -> Element?) -> Int {
    let id = nextSubscriberID
    nextSubscriberID += 1
    var subscriber = Subscriber(policy: policy)
    if case .active = phase { subscriber.initial = initial() }
    // When finished, the entry is a drainer with nothing buffered: its first `next()` delivers
    // the final element and removes it.
    subscribers[id] = subscriber
    return id
  }

  // MARK: yield

  enum YieldAction: Sendable {
    case none
    /// Resume every continuation with `element`.
    case resume([Continuation], element: Element)
  }

  /// When nobody would receive an element: advances the numbering as a
  /// yield would, runs `body`, and returns true. Otherwise changes nothing and
  /// returns false (the caller then builds the element and yields it).
  mutating func advanceIfUnobserved(_ body: (inout Element.Reported) -> Void) -> Bool {
    advanceIfUnobserved(by: 1, body)
  }

  /// Whether an element yielded now would reach nobody and change nothing
  /// else: active, and nobody subscribed. Then the numbering may advance
  /// without this state (``BroadcasterStorage``).
  var admitsUnlockedAdvance: Bool {
    if case .active = phase { return subscribers.isEmpty }
    return false
  }

  /// Takes in `count` elements numbered while nobody subscribed, without
  /// this state (``BroadcasterStorage``).
  mutating func absorbUnlockedAdvances(_ count: Int) {
    yieldedCount &+= count
  }

  private mutating func advanceIfUnobserved(by count: Int, _ body: (inout Element.Reported) -> Void) -> Bool {
    switch phase {
    case .finished: return true
    case .active:
      guard subscribers.isEmpty else { return false }
      yieldedCount &+= count
      body(&reported)
      return true
    }
  }

  mutating func yield(_ make: (_ sequenceNumber: Int, _ reported: inout Element.Reported) -> Element) -> YieldAction {
    guard case .active = phase else { return .none }
    let element = make(yieldedCount, &reported)
    yieldedCount &+= 1

    var waiters: [Continuation] = []
    var laggingIDs: [Int] = []
    // Iterate over a copy of the keys and mutate in place by key: holding
    // `subscribers.indices` across the mutations would keep a second reference
    // to the storage and copy every buffer on every yield (quadratic).
    for id in Array(subscribers.keys) {
      if let waiter = subscribers[id]!.waiter {
        subscribers[id]!.waiter = nil
        waiters.append(waiter)
      } else if !subscribers[id]!.enqueue(element) {
        laggingIDs.append(id)
      }
    }
    disconnect(laggingIDs)
    return waiters.isEmpty ? .none : .resume(waiters, element: element)
  }

  enum YieldBatchAction: Sendable {
    case none
    case resume([Resumption])
  }

  /// Appends `elements` in order to every live subscriber. A waiting subscriber is handed the
  /// first element directly; the rest is buffered, so each subscriber is resumed at most once.
  mutating func yield(contentsOf elements: [Element]) -> YieldBatchAction {
    guard case .active = phase, let first = elements.first else { return .none }
    yieldedCount &+= elements.count

    var resumptions: [Resumption] = []
    var laggingIDs: [Int] = []
    for id in Array(subscribers.keys) {
      var remaining = elements[...]
      if let waiter = subscribers[id]!.waiter {
        subscribers[id]!.waiter = nil
        resumptions.append(Resumption(continuation: waiter, element: first))
        remaining = remaining.dropFirst()
      }
      for element in remaining {
        guard subscribers[id]!.enqueue(element) else {
          laggingIDs.append(id)
          break
        }
      }
    }
    disconnect(laggingIDs)
    return resumptions.isEmpty ? .none : .resume(resumptions)
  }

  private mutating func disconnect(_ ids: [Int]) {
    for id in ids {
      let subscriber = subscribers.removeValue(forKey: id)
      lagged[id] = subscriber?.initial
    }
  }

  // MARK: finish

  enum FinishAction: Sendable {
    case none
    /// Resume every continuation with `final` (which is `nil` when the owner went away).
    case resume([Continuation], final: Element?)
  }

  /// Terminates once; later calls return `.none`. Waiting subscribers get `final` now and are
  /// removed; the others keep their buffers and get `final` after them.
  mutating func finish(final: Element?) -> FinishAction {
    guard case .active = phase else { return .none }
    phase = .finished(final: final)

    var waiters: [Continuation] = []
    for subscriber in subscribers.values {
      if let waiter = subscriber.waiter { waiters.append(waiter) }
    }
    if !waiters.isEmpty {
      subscribers = subscribers.filter { $0.value.waiter == nil }
    }
    return waiters.isEmpty ? .none : .resume(waiters, final: final)
  }

  // MARK: next

  enum NextAction: Sendable {
    case deliver(Delivery)
    case suspend
  }

  /// Fast path of `next()`: delivers what is available without suspending, or asks to suspend.
  mutating func next(id: Int) -> NextAction {
    if let delivery = takeAvailable(id: id) { return .deliver(delivery) }
    return .suspend
  }

  enum NextSuspendedAction: Sendable {
    /// The continuation was stored; a later yield, finish or cancellation resumes it.
    case none
    /// Resume the continuation right away with this delivery.
    case resume(Delivery)
  }

  /// Slow path of `next()`, called with the continuation. State may have changed since `next(id:)`
  /// (the lock was released in between), so everything is checked again. A subscriber that was
  /// cancelled or removed meanwhile no longer exists, so the late registration fails immediately
  /// with `.end` (the async-algorithms "cancelled placeholder" race, keyed by never-reused ids).
  mutating func nextSuspended(id: Int, continuation: Continuation) -> NextSuspendedAction {
    if let delivery = takeAvailable(id: id) { return .resume(delivery) }
    // takeAvailable returns nil only for an existing, active, empty subscriber.
    subscribers[id]!.waiter = continuation
    return .none
  }

  private mutating func takeAvailable(id: Int) -> Delivery? {
    if let pending = lagged[id] {
      if let initial = pending {
        lagged[id] = .some(nil)
        return .element(initial)
      }
      lagged.removeValue(forKey: id)
      return .lagged
    }
    guard let index = subscribers.index(forKey: id) else { return .end }
    precondition(
      subscribers.values[index].waiter == nil,
      "BroadcastSequence.AsyncIterator.next() called concurrently on the same subscription"
    )
    if let initial = subscribers.values[index].initial {
      subscribers.values[index].initial = nil
      return .element(initial)
    }
    let dropped = subscribers.values[index].dropped
    if dropped > 0 {
      subscribers.values[index].dropped = 0
      return .lost(count: dropped)
    }
    if let element = subscribers.values[index].buffer.popFirst() {
      return .element(element)
    }
    if case .finished(let final) = phase {
      subscribers.remove(at: index)
      return final.map(Delivery.element) ?? .end
    }
    return nil
  }

  // MARK: cancel

  enum CancelAction: Sendable {
    case none
    /// Resume this continuation with `nil`.
    case resume(Continuation)
  }

  /// Removes a subscriber (task cancelled, or iterator and sequence dropped). Idempotent.
  mutating func cancel(id: Int) -> CancelAction {
    if lagged.removeValue(forKey: id) != nil { return .none }
    guard let subscriber = subscribers.removeValue(forKey: id) else { return .none }
    return subscriber.waiter.map(CancelAction.resume) ?? .none
  }
}
