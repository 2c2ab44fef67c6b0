import Synchronization

// MARK: - SubscriberPolicy

/// How a subscriber's buffer of undelivered elements behaves when the subscriber reads more
/// slowly than the broadcaster yields.
///
/// A policy only concerns elements the subscriber has not consumed yet. A subscriber suspended in
/// `next()` is handed each new element directly and never buffers. An `initial` element given
/// to `Broadcaster.subscribe(policy:initial:)` is an undelivered element like any other and
/// occupies one slot. Markers and the final element never occupy a slot and are never dropped.
public struct SubscriberPolicy: Sendable, Hashable {
  enum Strategy: Sendable, Hashable {
    case keepNewest
    case disconnectOnLag
  }

  let strategy: Strategy

  /// Maximum number of undelivered elements kept for the subscriber. Always at least 1: a
  /// policy cannot hold a smaller one.
  public let capacity: Int

  /// Clamps `capacity` to at least 1: a buffer of zero (or fewer) elements could hold nothing,
  /// and a subscriber's choice must never stop the process (§8).
  private init(strategy: Strategy, capacity: Int) {
    self.strategy = strategy
    self.capacity = max(1, capacity)
  }

  /// Keep the newest `capacity` undelivered elements; when older ones are dropped, the
  /// subscriber's next element is a lost-marker carrying the exact number dropped since its last
  /// delivery, then the retained ones in order. The subscription's snapshot is never dropped: it
  /// stays the first element, outside the `capacity` (E5).
  ///
  /// Dropping happens inside `Broadcaster.yield`, never blocking the producer. A `capacity`
  /// below 1 is raised to 1 (``capacity`` reads the value in effect).
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

// MARK: - Broadcaster

/// A multi-subscriber fan-out for lifecycle events.
///
/// Every subscriber has its own bounded buffer governed by its `SubscriberPolicy`, so producers
/// never wait for consumers and a slow consumer never delays the others.
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
/// An element a ``Broadcaster`` carries, with what its owner reports to each
/// new subscriber: kept under the broadcaster's lock, so that it always
/// matches the numbering of the elements yielded so far.
package protocol Broadcastable: Sendable {
  associatedtype Reported: Sendable = Void
  /// What is reported before any element changed it.
  static var initialReported: Reported { get }
}

extension Broadcastable where Reported == Void {
  package static var initialReported: Void { () }
}

package final class Broadcaster<Element: Broadcastable>: Sendable {
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

  deinit {
    storage.finish(final: nil)
  }

  /// Registers a subscriber.
  ///
  /// `initial` runs UNDER the broadcaster's lock (so nothing can be yielded between the snapshot
  /// and registration: E5 "current state, then live events with no gap"); it must be cheap and
  /// must not call back into the broadcaster. If it returns non-nil, that element is the
  /// subscriber's first element. If the broadcaster is already finished, the returned sequence
  /// yields the final element at once, then ends (and `initial` is not called).
  ///
  /// Isolation: synchronous, callable from any context; registration is complete on return, so
  /// every element yielded after this call returns reaches the subscriber.
  ///
  /// The returned sequence is ONE subscription: its first `makeAsyncIterator()` gets the
  /// elements, later iterators return `nil` at once. The subscription is removed when the
  /// consuming task is cancelled, or when the sequence and its iterator are both dropped.
  func subscribe(policy: SubscriberPolicy, initial: () -> Element?) -> BroadcastSequence<Element> {
    subscribe(policy: policy) { _ in initial() }
  }

  /// ``subscribe(policy:initial:)`` with `initial` given what is reported
  /// (read under the same lock).
  func subscribe(policy: SubscriberPolicy, initial: (Element.Reported) -> Element?) -> BroadcastSequence<Element> {
    let id = storage.subscribe(policy: policy, initial: initial)
    return BroadcastSequence(subscription: BroadcastSubscription(storage: storage, id: id))
  }

  /// What is reported to new subscribers now.
  package var reported: Element.Reported { storage.reported }

  /// Changes what is reported to new subscribers, under the lock (for a
  /// change no element announces).
  package func updateReported(_ update: (inout Element.Reported) -> Void) {
    storage.updateReported(update)
  }

  /// Appends one element to every live subscriber: O(subscribers), never blocks, never waits for
  /// a slow subscriber.
  ///
  /// `make` runs under the lock, once per yield, so that callers can stamp a per-stream sequence
  /// number consistently (the Int passed is the 0-based count of elements yielded so far through
  /// this broadcaster; markers and initial elements do not count). It must be cheap and must not
  /// call back into the broadcaster. After `finish(final:)` the call is ignored and `make` is
  /// not called.
  ///
  /// Isolation: synchronous, callable from any context. Subscribers suspended in `next()` are
  /// resumed after the lock is released; the element is handed to them directly.
  /// Cancellation: not observed; the call never suspends.
  /// If no subscriber would receive an element, advances the numbering as a
  /// yield would, runs `body` under the broadcaster's lock, and returns true;
  /// otherwise does nothing and returns false. Lets an owner skip building an
  /// element nobody reads.
  package func yieldIfUnobserved(_ body: () -> Void) -> Bool {
    storage.yieldIfUnobserved { _ in body() }
  }

  /// ``yieldIfUnobserved(_:)`` for an element that changes what is reported:
  /// `update` runs under the lock, with the numbering.
  package func yieldIfUnobserved(updating update: (inout Element.Reported) -> Void) -> Bool {
    storage.yieldIfUnobserved(update)
  }

  /// ``yield(_:)`` for an element that changes what is reported: `update`
  /// runs under the lock, before `make`.
  package func yield(
    updating update: (inout Element.Reported) -> Void, _ make: (_ sequenceNumber: Int) -> Element
  ) {
    storage.yield { sequenceNumber, reported in
      update(&reported)
      return make(sequenceNumber)
    }
  }

  /// ``yieldIfUnobserved(_:)`` for an element whose only effect is its
  /// number: while nobody subscribes it takes no lock (one atomic
  /// increment), and a subscription's numbering still counts it.
  package func advanceIfUnobserved() -> Bool {
    storage.advanceIfUnobserved()
  }

  package func yield(_ make: (_ sequenceNumber: Int) -> Element) {
    storage.yield { sequenceNumber, _ in make(sequenceNumber) }
  }

  /// Same, for several elements at once with one lock acquisition and at most one resume per
  /// subscriber.
  ///
  /// The elements are delivered in array order and advance the sequence numbering by
  /// `elements.count`. A suspended subscriber is handed the first element, the rest is buffered
  /// under its policy. Ignored after `finish(final:)` or when `elements` is empty.
  /// Isolation, ordering and cancellation as for `yield(_:)`.
  package func yield(contentsOf elements: [Element]) {
    storage.yield(contentsOf: elements)
  }

  /// Terminates exactly once: each live subscriber receives `final` after what it has buffered
  /// (a subscriber past capacity still gets `final`: final is never dropped), then finishes.
  /// Later calls are ignored. Later subscribers get `final` at once then finish.
  ///
  /// Isolation: synchronous, callable from any context; suspended subscribers are resumed with
  /// `final` after the lock is released. Subscribers already disconnected for lagging get their
  /// lagged-marker and not `final`. Cancellation: not observed; the call never suspends.
  package func finish(final: Element) {
    storage.finish(final: final)
  }

  /// Number of live subscribers: those that will receive the next yielded element. A
  /// subscription stops counting when it is cancelled, dropped, disconnected for lagging, or
  /// ends; after `finish(final:)` this is 0. Thread-safe snapshot.
  package var subscriberCount: Int {
    storage.subscriberCount
  }

  /// Whether `finish(final:)` has been called. Thread-safe snapshot.
  package var isFinished: Bool {
    storage.isFinished
  }

  /// Subscribers currently suspended in `next()`. Snapshot for tests and diagnostics.
  var waitingSubscriberCount: Int {
    storage.waitingSubscriberCount
  }
}

// MARK: - Storage

/// The lock-protected state machine plus the owner's marker closures. Shared by the
/// `Broadcaster` and every subscription, so a subscription can outlive the owner.
final class BroadcasterStorage<Element: Broadcastable>: Sendable {
  typealias StateMachine = BroadcasterStateMachine<Element>

  private let state = Locked(StateMachine())
  /// Elements numbered without the lock while nobody subscribes; the top
  /// bit set means "take the lock" (someone subscribes, or it finished).
  /// Every locked operation first takes these in and sets the bit, and
  /// clears it at the end if nobody subscribes: an advance is either
  /// counted before a subscription's numbering starts or made under the
  /// lock, never lost.
  private let unlocked = Atomic<UInt64>(0)
  private static var needsLock: UInt64 { 1 << 63 }
  private let lostMarker: @Sendable (Int) -> Element
  private let laggedMarker: @Sendable () -> Element

  init(lostMarker: @escaping @Sendable (Int) -> Element, laggedMarker: @escaping @Sendable () -> Element) {
    self.lostMarker = lostMarker
    self.laggedMarker = laggedMarker
  }

  /// Runs `body` on the state machine under its lock, with the advances
  /// made without the lock taken in first.
  private func withMachine<Result>(_ body: (inout StateMachine) -> Result) -> Result {
    state.withLock { machine in
      // With the bit set and nothing advanced, the word cannot change until
      // a locked operation clears the bit: no read-modify-write needed (the
      // common case while someone subscribes).
      if unlocked.load(ordering: .acquiring) != Self.needsLock {
        let advanced = unlocked.exchange(Self.needsLock, ordering: .acquiringAndReleasing) & ~Self.needsLock
        machine.absorbUnlockedAdvances(Int(advanced))
      }
      let result = body(&machine)
      if machine.admitsUnlockedAdvance { unlocked.store(0, ordering: .releasing) }
      return result
    }
  }

  var subscriberCount: Int { withMachine { $0.liveSubscriberCount } }
  var isFinished: Bool { withMachine { $0.isFinished } }
  var waitingSubscriberCount: Int { withMachine { $0.waitingSubscriberCount } }

  func subscribe(policy: SubscriberPolicy, initial: (Element.Reported) -> Element?) -> Int {
    withMachine { machine in
      let reported = machine.reported
      return machine.subscribe(policy: policy) { initial(reported) }
    }
  }

  var reported: Element.Reported { withMachine { $0.reported } }

  func updateReported(_ update: (inout Element.Reported) -> Void) {
    withMachine { update(&$0.reported) }
  }

  func yieldIfUnobserved(_ body: (inout Element.Reported) -> Void) -> Bool {
    withMachine { $0.advanceIfUnobserved(body) }
  }

  /// ``yieldIfUnobserved(_:)`` with nothing to run: without the lock while
  /// nobody subscribes (one atomic increment).
  func advanceIfUnobserved() -> Bool {
    var current = unlocked.load(ordering: .relaxed)
    while current & Self.needsLock == 0 {
      let (exchanged, original) = unlocked.compareExchange(
        expected: current, desired: current &+ 1, ordering: .relaxed)
      if exchanged { return true }
      current = original
    }
    return yieldIfUnobserved { _ in }
  }

  func yield(_ make: (Int, inout Element.Reported) -> Element) {
    let action = withMachine { $0.yield(make) }
    switch action {
    case .none:
      break
    case .resume(let continuations, let element):
      for continuation in continuations { continuation.resume(returning: element) }
    }
  }

  func yield(contentsOf elements: [Element]) {
    let action = withMachine { $0.yield(contentsOf: elements) }
    switch action {
    case .none:
      break
    case .resume(let resumptions):
      for resumption in resumptions { resumption.continuation.resume(returning: resumption.element) }
    }
  }

  /// `final == nil` is used by the owner's deinit: subscribers end without a final element.
  func finish(final: Element?) {
    let action = withMachine { $0.finish(final: final) }
    switch action {
    case .none:
      break
    case .resume(let continuations, let final):
      for continuation in continuations { continuation.resume(returning: final) }
    }
  }

  /// Removes subscriber `id`, resuming its suspended `next()` with `nil`. Idempotent.
  func cancel(id: Int) {
    let action = withMachine { $0.cancel(id: id) }
    switch action {
    case .none:
      break
    case .resume(let continuation):
      continuation.resume(returning: nil)
    }
  }

  /// The next element of subscriber `id`, suspending until one is available.
  ///
  /// Cancellation: the whole call runs inside `withTaskCancellationHandler`. If the task is
  /// cancelled while suspended, the handler removes the subscriber and resumes it with `nil`. If
  /// the task is already cancelled on entry, the handler runs first and removes the subscriber,
  /// so the fast path (and any late continuation registration) finds no subscriber and returns
  /// `nil` at once. Either way the subscription ends.
  func next(id: Int, isolation: isolated (any Actor)?) async -> Element? {
    await withTaskCancellationHandler {
      let action = withMachine { $0.next(id: id) }
      switch action {
      case .deliver(let delivery):
        return materialize(delivery)
      case .suspend:
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
          let action = withMachine { $0.nextSuspended(id: id, continuation: continuation) }
          switch action {
          case .none:
            break
          case .resume(let delivery):
            continuation.resume(returning: materialize(delivery))
          }
        }
      }
    } onCancel: {
      self.cancel(id: id)
    }
  }

  /// Builds the element for a delivery. Called outside the lock (it may run the owner's markers).
  private func materialize(_ delivery: StateMachine.Delivery) -> Element? {
    switch delivery {
    case .element(let element): element
    case .lost(let count): lostMarker(count)
    case .lagged: laggedMarker()
    case .end: nil
    }
  }
}

// MARK: - Subscription token

/// One registration with a broadcaster. Shared by a `BroadcastSequence` and the iterator made
/// from it; when the last of them is dropped, `deinit` unsubscribes.
final class BroadcastSubscription<Element: Broadcastable>: Sendable {
  let storage: BroadcasterStorage<Element>
  let id: Int
  private let claimed = Atomic<Bool>(false)

  init(storage: BroadcasterStorage<Element>, id: Int) {
    self.storage = storage
    self.id = id
  }

  /// `true` for the first caller only: the subscription can be iterated once.
  func claim() -> Bool {
    !claimed.exchange(true, ordering: .relaxed)
  }

  deinit {
    storage.cancel(id: id)
  }
}

// MARK: - BroadcastSequence

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

  /// Iterates the subscription's elements. Use it from a single task at a time: calling `next()`
  /// concurrently on copies of the same iterator is a programming error and traps.
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

  /// Returns the iterator of this subscription. Only the first call receives elements; later
  /// calls return an iterator whose `next()` returns `nil` immediately.
  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(subscription: subscription.claim() ? subscription : nil)
  }
}
