/// What the owner of a broadcast calls: the API of ``Broadcaster`` and
/// ``OwnedBroadcaster``, written once over their shared storage.
///
/// Isolation: all methods are synchronous, non-isolated and safe to call from any thread, task
/// or actor (see ``Broadcaster`` for locking, ordering and lifetime).
protocol BroadcastingFront: ~Copyable, Sendable {
  associatedtype Element: Broadcastable
  /// The state the subscriptions share with the owner.
  var storage: BroadcasterStorage<Element> { get }
}

extension BroadcastingFront where Self: ~Copyable {
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
  var reported: Element.Reported { storage.reported }

  /// Changes what is reported to new subscribers, under the lock (for a
  /// change no element announces).
  func updateReported(_ update: (inout Element.Reported) -> Void) {
    storage.updateReported(update)
  }

  /// Advances the numbering as a yield would and runs `body` under the
  /// broadcaster's lock, if no subscriber would receive an element.
  ///
  /// Returns true then; otherwise does nothing and returns false. Lets an
  /// owner skip building an element nobody reads.
  func yieldIfUnobserved(_ body: () -> Void) -> Bool {
    storage.yieldIfUnobserved { _ in body() }
  }

  /// ``yieldIfUnobserved(_:)`` for an element that changes what is reported:
  /// `update` runs under the lock, with the numbering.
  func yieldIfUnobserved(updating update: (inout Element.Reported) -> Void) -> Bool {
    storage.yieldIfUnobserved(update)
  }

  /// ``yield(_:)`` for an element that changes what is reported: `update`
  /// runs under the lock, before `make`.
  func yield(
    updating update: (inout Element.Reported) -> Void, _ make: (_ sequenceNumber: Int) -> Element
  ) {
    storage.yield { sequenceNumber, reported in
      update(&reported)
      return make(sequenceNumber)
    }
  }

  /// ``yieldIfUnobserved(_:)`` without the lock, for an element whose only
  /// effects are its number and, if `report` is not 0, the change of what is
  /// reported that the owner's code `report` (1...127) stands for
  /// (``Broadcastable/applyUnlockedReport(_:to:)``): one atomic
  /// compare-and-exchange, and a later subscription's numbering counts it.
  ///
  /// False, with nothing done, whenever it would need the lock (someone
  /// subscribes, it finished, or a subscription just ended and no locked
  /// operation has run since). The owner then yields the element itself, or
  /// calls ``yieldIfUnobserved(updating:)``: with a subscriber, one lock per
  /// element.
  func advanceWithoutLock(reporting report: UInt8 = 0) -> Bool {
    storage.advanceWithoutLock(reporting: report)
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
  func yield(_ make: (_ sequenceNumber: Int) -> Element) {
    storage.yield { sequenceNumber, _ in make(sequenceNumber) }
  }

  /// Same, for several elements at once with one lock acquisition and at most one resume per
  /// subscriber.
  ///
  /// The elements are delivered in array order and advance the sequence numbering by
  /// `elements.count`. A suspended subscriber is handed the first element, the rest is buffered
  /// under its policy. Ignored after `finish(final:)` or when `elements` is empty.
  /// Isolation, ordering and cancellation as for `yield(_:)`.
  func yield(contentsOf elements: [Element]) {
    storage.yield(contentsOf: elements)
  }

  /// Terminates exactly once: each live subscriber receives `final` after what it has buffered
  /// (a subscriber past capacity still gets `final`: final is never dropped), then finishes.
  ///
  /// Later calls are ignored. Later subscribers get `final` at once then finish.
  ///
  /// Isolation: synchronous, callable from any context; suspended subscribers are resumed with
  /// `final` after the lock is released. Subscribers already disconnected for lagging get their
  /// lagged-marker and not `final`. Cancellation: not observed; the call never suspends.
  func finish(final: Element) {
    storage.finish(final: final)
  }

  /// Number of live subscribers: those that will receive the next yielded element.
  ///
  /// A subscription stops counting when it is cancelled, dropped, disconnected for lagging,
  /// or ends; after `finish(final:)` this is 0. Thread-safe snapshot.
  var subscriberCount: Int {
    storage.subscriberCount
  }

  /// Whether `finish(final:)` has been called.
  ///
  /// Thread-safe snapshot.
  var isFinished: Bool {
    storage.isFinished
  }

  /// Subscribers currently suspended in `next()`.
  ///
  /// Snapshot for tests and diagnostics.
  var waitingSubscriberCount: Int {
    storage.waitingSubscriberCount
  }

  /// Elements kept in the shared log for subscribers that have not read them (tests).
  var loggedCount: Int {
    storage.loggedCount
  }
}
