import Synchronization
import Testing

@testable import Containment

// No sleeps and no real time: a "slow" subscriber simply does not call next() yet, and the only
// waiting done here is `waitForWaiters`, a deterministic handshake: the subscriber task runs on an
// `IdleExecutor`, which reports when that task has run up to its next suspension, and the
// broadcaster must then count the expected number of subscribers suspended in next().

private enum Event: Sendable, Hashable, Broadcastable {
  case value(Int)
  case snapshot(Int)
  case lost(Int)
  case lagged
  case final

  /// What these tests report to new subscribers: a count the yields change.
  static var initialReported: Int { 0 }

  /// A change recorded without the lock sets the count to its code.
  static func applyUnlockedReport(_ code: UInt8, to reported: inout Int) { reported = Int(code) }
}

private func makeBroadcaster() -> Broadcaster<Event> {
  Broadcaster(lostMarker: { .lost($0) }, laggedMarker: { .lagged })
}

private func values(_ range: Range<Int>) -> [Event] {
  range.map(Event.value)
}

extension Broadcaster<Event> {
  /// Yields `count` elements, each `.value(sequenceNumber)`.
  fileprivate func yieldValues(_ count: Int) {
    for _ in 0..<count { yield { .value($0) } }
  }
}

/// Reads exactly `count` elements (stopping early only at nil).
private func take(_ count: Int, from iterator: inout BroadcastSequence<Event>.AsyncIterator) async -> [Event] {
  var out: [Event] = []
  for _ in 0..<count {
    guard let element = await iterator.next() else { break }
    out.append(element)
  }
  return out
}

/// Reads until nil.
private func drain(_ iterator: inout BroadcastSequence<Event>.AsyncIterator) async -> [Event] {
  var out: [Event] = []
  while let element = await iterator.next() { out.append(element) }
  return out
}

private func collectAll(_ sequence: BroadcastSequence<Event>) async -> [Event] {
  var out: [Event] = []
  for await element in sequence { out.append(element) }
  return out
}

/// Deterministic handshake: returns once the subscriber tasks on `executor` have run up to their
/// next suspension, and checks that `count` subscribers are suspended in next().
private func waitForWaiters(_ broadcaster: Broadcaster<Event>, _ count: Int, on executor: IdleExecutor) async {
  await executor.idle()
  #expect(broadcaster.waitingSubscriberCount == count)
}

private final class Counter: Sendable {
  let value = Atomic<Int>(0)
}

@Suite("Broadcaster", .timeLimit(.minutes(1)))
struct BroadcasterTests {
  // 1
  @Test func everySubscriberReceivesEveryElementInYieldOrder() async {
    let broadcaster = makeBroadcaster()
    let sequences = (0..<4).map { _ in broadcaster.subscribe(policy: .default) { nil } }
    #expect(broadcaster.subscriberCount == 4)

    let results = await withTaskGroup(of: (Int, [Event]).self) { group in
      for (index, sequence) in sequences.enumerated() {
        group.addTask { (index, await collectAll(sequence)) }
      }
      group.addTask {
        broadcaster.yieldValues(200)
        broadcaster.finish(final: .final)
        return (-1, [])
      }
      var results: [Int: [Event]] = [:]
      for await (index, events) in group where index >= 0 { results[index] = events }
      return results
    }

    let expected = values(0..<200) + [.final]
    #expect(results.count == 4)
    for index in 0..<4 { #expect(results[index] == expected) }
    #expect(broadcaster.subscriberCount == 0)
  }

  // 2
  @Test func keepNewestDropsOldestAndReportsExactLostCount() async {
    let broadcaster = makeBroadcaster()
    let slow = broadcaster.subscribe(policy: .keepNewest(3)) { nil }
    let fast = broadcaster.subscribe(policy: .default) { nil }

    let fastReceived = await withTaskGroup(of: [Event].self) { group in
      group.addTask {
        var iterator = fast.makeAsyncIterator()
        return await take(10, from: &iterator)
      }
      group.addTask {
        broadcaster.yieldValues(10)
        return []
      }
      var fastReceived: [Event] = []
      for await events in group where !events.isEmpty { fastReceived = events }
      return fastReceived
    }
    #expect(fastReceived == values(0..<10))

    var slowIterator = slow.makeAsyncIterator()
    #expect(await take(4, from: &slowIterator) == [.lost(7), .value(7), .value(8), .value(9)])

    // The lost count is per gap: only what was dropped since the last delivery.
    broadcaster.yieldValues(5)  // 10...14, keeps 12...14
    #expect(await take(4, from: &slowIterator) == [.lost(2), .value(12), .value(13), .value(14)])

    broadcaster.finish(final: .final)
    #expect(await drain(&slowIterator) == [.final])
  }

  // 3
  @Test func disconnectOnLagYieldsOneLaggedMarkerThenEnds() async {
    let broadcaster = makeBroadcaster()
    let lagging = broadcaster.subscribe(policy: .disconnectOnLag(3)) { nil }
    let other = broadcaster.subscribe(policy: .default) { nil }

    broadcaster.yieldValues(3)
    #expect(broadcaster.subscriberCount == 2)  // exactly at capacity: still live
    broadcaster.yieldValues(1)
    #expect(broadcaster.subscriberCount == 1)  // the 4th undelivered element disconnects it

    var laggingIterator = lagging.makeAsyncIterator()
    #expect(await drain(&laggingIterator) == [.lagged])
    #expect(await laggingIterator.next() == nil)

    broadcaster.yieldValues(1)
    broadcaster.finish(final: .final)
    #expect(await collectAll(other) == values(0..<5) + [.final])
  }

  // 4
  @Test func initialSnapshotThenLiveEventsWithNoGap() async {
    let broadcaster = makeBroadcaster()
    let yielded = Counter()  // only touched inside `make` and `initial`, i.e. under the lock
    let total = 2_000
    let subscriberCount = 64

    let sequences = await withTaskGroup(of: [BroadcastSequence<Event>].self) { group in
      group.addTask {
        for _ in 0..<total {
          broadcaster.yield { number in
            yielded.value.store(number + 1, ordering: .relaxed)
            return .value(number)
          }
          await Task.yield()
        }
        return []
      }
      group.addTask {
        var sequences: [BroadcastSequence<Event>] = []
        for _ in 0..<subscriberCount {
          sequences.append(
            broadcaster.subscribe(policy: .keepNewest(total + 1)) {
              .snapshot(yielded.value.load(ordering: .relaxed))
            }
          )
          await Task.yield()
        }
        return sequences
      }
      var all: [BroadcastSequence<Event>] = []
      for await sequences in group { all += sequences }
      return all
    }
    #expect(sequences.count == subscriberCount)
    broadcaster.finish(final: .final)

    for sequence in sequences {
      let received = await collectAll(sequence)
      guard case .snapshot(let seen)? = received.first else {
        Issue.record("first element is not the snapshot: \(String(describing: received.first))")
        continue
      }
      #expect(received == [.snapshot(seen)] + values(seen..<total) + [.final])
    }
  }

  // 5
  @Test func finishDeliversFinalExactlyOnceThenNil() async {
    let broadcaster = makeBroadcaster()
    let waiting = broadcaster.subscribe(policy: .default) { nil }
    let buffered = broadcaster.subscribe(policy: .default) { .snapshot(0) }
    let pastCapacity = broadcaster.subscribe(policy: .keepNewest(1)) { nil }

    let subscriber = IdleExecutor()
    let waitingReceived = await withTaskGroup(of: [Event].self) { group in
      group.addTask(executorPreference: subscriber) {
        var iterator = waiting.makeAsyncIterator()
        let events = await drain(&iterator)
        let afterEnd = await iterator.next()
        return events + (afterEnd.map { [$0] } ?? [])
      }
      await waitForWaiters(broadcaster, 1, on: subscriber)
      broadcaster.yieldValues(1)
      await waitForWaiters(broadcaster, 1, on: subscriber)
      broadcaster.yieldValues(1)
      await waitForWaiters(broadcaster, 1, on: subscriber)  // suspended in next() when finish arrives
      broadcaster.finish(final: .final)
      return await group.next()!
    }
    #expect(waitingReceived == [.value(0), .value(1), .final])
    #expect(broadcaster.isFinished)
    #expect(broadcaster.subscriberCount == 0)

    // Ignored after finish: further finishes and yields (`make` is not even called).
    broadcaster.finish(final: .value(-1))
    var makeCalled = false
    broadcaster.yield { number in
      makeCalled = true
      return .value(number)
    }
    #expect(!makeCalled)

    var bufferedIterator = buffered.makeAsyncIterator()
    #expect(await drain(&bufferedIterator) == [.snapshot(0), .value(0), .value(1), .final])
    #expect(await bufferedIterator.next() == nil)

    var pastCapacityIterator = pastCapacity.makeAsyncIterator()
    #expect(await drain(&pastCapacityIterator) == [.lost(1), .value(1), .final])
    #expect(await pastCapacityIterator.next() == nil)

    // Subscribing after finish: [final] then nil, and `initial` is not called.
    var initialCalled = false
    let late = broadcaster.subscribe(policy: .default) {
      initialCalled = true
      return .snapshot(99)
    }
    #expect(!initialCalled)
    var lateIterator = late.makeAsyncIterator()
    #expect(await drain(&lateIterator) == [.final])
    #expect(await lateIterator.next() == nil)
    #expect(broadcaster.subscriberCount == 0)
  }

  // 6a
  @Test func cancellingAWaitingConsumerEndsItsSubscription() async {
    let broadcaster = makeBroadcaster()
    let cancelled = broadcaster.subscribe(policy: .default) { nil }
    let other = broadcaster.subscribe(policy: .default) { nil }

    let subscriber = IdleExecutor()
    let cancelledReceived = await withTaskGroup(of: [Event].self) { group in
      group.addTask(executorPreference: subscriber) {
        var iterator = cancelled.makeAsyncIterator()
        var events = await take(1, from: &iterator)
        // The second next() is suspended when the cancellation arrives.
        events += await drain(&iterator)
        return events
      }
      await waitForWaiters(broadcaster, 1, on: subscriber)
      broadcaster.yieldValues(1)
      await waitForWaiters(broadcaster, 1, on: subscriber)
      #expect(broadcaster.subscriberCount == 2)
      group.cancelAll()
      return await group.next()!
    }
    #expect(cancelledReceived == [.value(0)])
    #expect(broadcaster.subscriberCount == 1)
    #expect(broadcaster.waitingSubscriberCount == 0)

    broadcaster.yieldValues(2)
    broadcaster.finish(final: .final)
    #expect(await collectAll(other) == values(0..<3) + [.final])
  }

  // 6b
  @Test func droppingTheSequenceOrIteratorUnsubscribes() async {
    let broadcaster = makeBroadcaster()
    let kept = broadcaster.subscribe(policy: .default) { nil }

    do {
      let sequence = broadcaster.subscribe(policy: .default) { nil }
      #expect(broadcaster.subscriberCount == 2)
      broadcaster.yieldValues(2)
      var iterator = sequence.makeAsyncIterator()
      #expect(await take(1, from: &iterator) == [.value(0)])
    }
    #expect(broadcaster.subscriberCount == 1)

    do {
      _ = broadcaster.subscribe(policy: .default) { nil }  // never iterated
    }
    #expect(broadcaster.subscriberCount == 1)

    broadcaster.yieldValues(1)
    broadcaster.finish(final: .final)
    #expect(await collectAll(kept) == values(0..<3) + [.final])
  }

  // 6c
  @Test func aSecondIteratorOfTheSameSequenceEndsImmediately() async {
    let broadcaster = makeBroadcaster()
    let sequence = broadcaster.subscribe(policy: .default) { .snapshot(0) }
    var first = sequence.makeAsyncIterator()
    var second = sequence.makeAsyncIterator()
    #expect(await second.next() == nil)
    #expect(broadcaster.subscriberCount == 1)  // the subscription itself is unaffected

    broadcaster.yieldValues(1)
    broadcaster.finish(final: .final)
    #expect(await drain(&first) == [.snapshot(0), .value(0), .final])
  }

  // 7
  @Test func nextOnAnAlreadyCancelledTaskReturnsNilAtOnce() async {
    let broadcaster = makeBroadcaster()
    let empty = broadcaster.subscribe(policy: .default) { nil }
    let nonEmpty = broadcaster.subscribe(policy: .default) { .snapshot(0) }
    let other = broadcaster.subscribe(policy: .default) { nil }

    let results = await withTaskGroup(of: [Event?].self) { group in
      group.addTask {
        withUnsafeCurrentTask { $0?.cancel() }
        var emptyIterator = empty.makeAsyncIterator()
        var nonEmptyIterator = nonEmpty.makeAsyncIterator()
        return [await emptyIterator.next(), await nonEmptyIterator.next(), await emptyIterator.next()]
      }
      return await group.next()!
    }
    #expect(results == [nil, nil, nil])
    #expect(broadcaster.subscriberCount == 1)

    broadcaster.yieldValues(1)
    broadcaster.finish(final: .final)
    #expect(await collectAll(other) == [.value(0), .final])
  }

  // 7 (state machine level): a continuation registered after the cancellation handler ran fails.
  @Test func lateContinuationRegistrationAfterCancellationFailsImmediately() async {
    var machine = BroadcasterStateMachine<Event>()
    let id = machine.subscribe(policy: .default) { nil }
    guard case .suspend = machine.next(id: id) else {
      Issue.record("expected the fast path to ask for suspension")
      return
    }
    // onCancel runs between the fast path and the registration:
    guard case .none = machine.cancel(id: id) else {
      Issue.record("no continuation should be stored yet")
      return
    }
    let result: Event? = await withUnsafeContinuation { continuation in
      switch machine.nextSuspended(id: id, continuation: continuation) {
      case .resume(.end):
        continuation.resume(returning: nil)
      case .none, .resume:
        Issue.record("late registration must be refused with .end")
        continuation.resume(returning: .lagged)
      }
    }
    #expect(result == nil)
    #expect(machine.liveSubscriberCount == 0)
    #expect(machine.waitingSubscriberCount == 0)
  }

  // 8
  @Test func batchYieldDeliversInOrder() async {
    let broadcaster = makeBroadcaster()
    let waiting = broadcaster.subscribe(policy: .keepNewest(2)) { nil }
    let buffered = broadcaster.subscribe(policy: .default) { nil }
    let small = broadcaster.subscribe(policy: .keepNewest(2)) { nil }

    let subscriber = IdleExecutor()
    let waitingReceived = await withTaskGroup(of: [Event].self) { group in
      group.addTask(executorPreference: subscriber) {
        var iterator = waiting.makeAsyncIterator()
        let first = await take(1, from: &iterator)  // handed directly, then returns
        return first
      }
      await waitForWaiters(broadcaster, 1, on: subscriber)
      broadcaster.yield(contentsOf: values(0..<5))
      return await group.next()!
    }
    #expect(waitingReceived == [.value(0)])

    // The numbering continues after the batch.
    var numbers: [Int] = []
    broadcaster.yield { number in
      numbers.append(number)
      return .value(number)
    }
    #expect(numbers == [5])
    broadcaster.yield(contentsOf: [])  // no-op
    broadcaster.finish(final: .final)

    var waitingIterator = waiting.makeAsyncIterator()  // second iterator: already claimed
    #expect(await waitingIterator.next() == nil)
    #expect(await collectAll(buffered) == values(0..<6) + [.final])
    #expect(await collectAll(small) == [.lost(4), .value(4), .value(5), .final])
  }

  // 8 (waiting subscriber keeps the rest of the batch under its policy)
  @Test func batchYieldHandsFirstToWaiterAndBuffersTheRest() async {
    let broadcaster = makeBroadcaster()
    let waiting = broadcaster.subscribe(policy: .keepNewest(2)) { nil }
    let laggard = broadcaster.subscribe(policy: .disconnectOnLag(2)) { nil }

    let subscriber = IdleExecutor()
    let received = await withTaskGroup(of: [Event].self) { group in
      group.addTask(executorPreference: subscriber) {
        var iterator = waiting.makeAsyncIterator()
        let first = await take(1, from: &iterator)
        return first + (await drain(&iterator))
      }
      await waitForWaiters(broadcaster, 1, on: subscriber)
      broadcaster.yield(contentsOf: values(0..<5))
      #expect(broadcaster.subscriberCount == 1)  // the laggard overflowed inside the batch
      broadcaster.finish(final: .final)
      return await group.next()!
    }
    #expect(received == [.value(0), .lost(2), .value(3), .value(4), .final])
    #expect(await collectAll(laggard) == [.lagged])
  }

  @Test func sequenceNumbersCountOnlyYieldedElements() async {
    let broadcaster = makeBroadcaster()
    var numbers: [Int] = []
    let sequence = broadcaster.subscribe(policy: .keepNewest(1)) { .snapshot(0) }
    for _ in 0..<3 {
      broadcaster.yield { number in
        numbers.append(number)
        return .value(number)
      }
    }
    broadcaster.yield(contentsOf: [.value(3), .value(4)])
    broadcaster.yield { number in
      numbers.append(number)
      return .value(number)
    }
    #expect(numbers == [0, 1, 2, 5])
    broadcaster.finish(final: .final)
    // The snapshot is never dropped (E5): the lost count is the yielded elements 0...4.
    #expect(await collectAll(sequence) == [.snapshot(0), .lost(5), .value(5), .final])
  }

  @Test func elementsAdvancedWithoutTheLockAreNumberedBeforeALaterSubscription() async {
    let broadcaster = makeBroadcaster()
    var numbers: [Int] = []
    func yieldNumbered() {
      broadcaster.yield { number in
        numbers.append(number)
        return .value(number)
      }
    }
    // Nobody subscribes: three advances without the lock, one with it.
    #expect(broadcaster.advanceWithoutLock())
    #expect(broadcaster.advanceWithoutLock())
    #expect(broadcaster.yieldIfUnobserved {})
    #expect(broadcaster.advanceWithoutLock())
    do {
      let sequence = broadcaster.subscribe(policy: .keepNewest(8)) { .snapshot(0) }
      // Someone subscribes: nothing advances unobserved any more.
      #expect(!broadcaster.advanceWithoutLock())
      #expect(!broadcaster.yieldIfUnobserved {})
      yieldNumbered()
      var iterator = sequence.makeAsyncIterator()
      #expect(await take(2, from: &iterator) == [.snapshot(0), .value(4)])
    }
    // That subscription ended with its sequence: advancing without the lock
    // resumes, and is still counted.
    #expect(broadcaster.subscriberCount == 0)
    #expect(broadcaster.advanceWithoutLock())
    let later = broadcaster.subscribe(policy: .keepNewest(8)) { .snapshot(1) }
    yieldNumbered()
    #expect(numbers == [4, 6])
    broadcaster.finish(final: .final)
    #expect(await collectAll(later) == [.snapshot(1), .value(6), .final])
    // Finished: the lock-free advance declines; the locked one is a no-op.
    #expect(!broadcaster.advanceWithoutLock())
    #expect(broadcaster.yieldIfUnobserved {})
  }

  /// A change of what is reported, recorded without the lock, reaches the
  /// next snapshot.
  ///
  /// It is numbered with its advance and the latest one counts. Once
  /// someone subscribes, the call changes nothing and says so (the owner
  /// yields an element instead).
  @Test func changesReportedWithoutTheLockReachTheNextSnapshot_E5() async {
    let broadcaster = makeBroadcaster()
    #expect(broadcaster.advanceWithoutLock(reporting: 7))
    #expect(broadcaster.advanceWithoutLock())
    #expect(broadcaster.advanceWithoutLock(reporting: 5))
    #expect(broadcaster.advanceWithoutLock())
    let first = broadcaster.subscribe(policy: .keepNewest(8)) { reported in .snapshot(reported) }
    #expect(!broadcaster.advanceWithoutLock(reporting: 9))
    broadcaster.yield(updating: { $0 += 100 }) { .value($0) }
    #expect(broadcaster.reported == 105)
    broadcaster.finish(final: .final)
    #expect(await collectAll(first) == [.snapshot(5), .value(4), .final])
    // Finished: a report without an element changes nothing.
    #expect(!broadcaster.advanceWithoutLock(reporting: 3))
    #expect(broadcaster.reported == 105)
  }

  /// The lock-free advance says no, and changes nothing, whenever the lock
  /// is needed: while someone subscribes, and once finished.
  ///
  /// The owner then yields the element itself, which is numbered after
  /// every earlier advance.
  @Test func anAdvanceWithoutTheLockDeclinesWhileObservedAndOnceFinished() async {
    let broadcaster = makeBroadcaster()
    #expect(broadcaster.advanceWithoutLock(reporting: 2))
    let sequence = broadcaster.subscribe(policy: .keepNewest(8)) { reported in .snapshot(reported) }
    #expect(!broadcaster.advanceWithoutLock(reporting: 9))
    #expect(!broadcaster.advanceWithoutLock())
    broadcaster.yield { .value($0) }
    #expect(broadcaster.reported == 2)
    broadcaster.finish(final: .final)
    #expect(await collectAll(sequence) == [.snapshot(2), .value(1), .final])
    #expect(!broadcaster.advanceWithoutLock(reporting: 3))
    #expect(broadcaster.reported == 2)
  }

  @Test func aSnapshotIsDeliveredFirstEvenIfTheBufferOverflowsBeforeTheFirstRead_E5() async {
    let broadcaster = makeBroadcaster()
    let keeping = broadcaster.subscribe(policy: .keepNewest(2)) { .snapshot(0) }
    let lagging = broadcaster.subscribe(policy: .disconnectOnLag(2)) { .snapshot(0) }
    broadcaster.yieldValues(5)
    var keepingIterator = keeping.makeAsyncIterator()
    #expect(await take(4, from: &keepingIterator) == [.snapshot(0), .lost(3), .value(3), .value(4)])
    #expect(await collectAll(lagging) == [.snapshot(0), .lagged])
    broadcaster.finish(final: .final)
    #expect(await drain(&keepingIterator) == [.final])
  }

  @Test func droppingTheBroadcasterEndsSubscribersAfterTheirBuffers() async {
    var broadcaster: Broadcaster<Event>? = makeBroadcaster()
    let sequence = broadcaster!.subscribe(policy: .default) { .snapshot(0) }
    broadcaster!.yieldValues(2)
    broadcaster = nil
    #expect(await collectAll(sequence) == [.snapshot(0), .value(0), .value(1)])
  }

  /// A broadcaster stored inline in its owner ends like a shared one: its
  /// subscribers read what they have buffered, then nil, with no final element.
  @Test func droppingAnOwnedBroadcasterEndsSubscribersAfterTheirBuffers() async {
    var owned: OwnedBroadcaster<Event>? = OwnedBroadcaster(
      storage: BroadcasterStorage(lostMarker: { .lost($0) }, laggedMarker: { .lagged }))
    let sequence = owned!.subscribe(policy: .keepNewest(8)) { reported in .snapshot(reported) }
    #expect(owned!.advanceWithoutLock() == false)
    owned!.yield(updating: { $0 += 1 }) { .value($0) }
    owned!.yield { .value($0) }
    #expect(owned!.reported == 1)
    owned = nil
    #expect(await collectAll(sequence) == [.snapshot(0), .value(0), .value(1)])
  }

  @Test func ringBufferIsFIFOAcrossWrapAroundAndGrowth() {
    var buffer = BroadcastBuffer<Int>()
    var expected: [Int] = []
    var next = 0
    var popped: [Int] = []
    // Interleave pushes and pops so head wraps around while the storage grows.
    for round in 0..<50 {
      for _ in 0..<(round % 7 + 1) {
        buffer.append(next)
        expected.append(next)
        next += 1
      }
      for _ in 0..<(round % 5) {
        if let value = buffer.popFirst() { popped.append(value) }
      }
      #expect(buffer.count == expected.count - popped.count)
    }
    while let value = buffer.popFirst() { popped.append(value) }
    #expect(popped == expected)
    #expect(buffer.isEmpty)
    buffer.append(1)
    buffer.removeAll()
    #expect(buffer.popFirst() == nil)
  }

  /// What is reported changes under the lock with the numbering: a
  /// subscription's first element tells exactly the changes of the elements
  /// numbered before it, whether they were yielded, advanced unobserved or
  /// made without an element.
  @Test func aSubscriptionIsToldWhatEveryEarlierElementReported_E5() async {
    let broadcaster = makeBroadcaster()
    #expect(broadcaster.yieldIfUnobserved(updating: { $0 += 1 }))
    #expect(broadcaster.yieldIfUnobserved(updating: { $0 += 10 }))
    broadcaster.updateReported { $0 += 100 }
    let first = broadcaster.subscribe(policy: .keepNewest(8)) { reported in .snapshot(reported) }
    // Observed now: nothing is reported without an element.
    #expect(!broadcaster.yieldIfUnobserved(updating: { $0 += 1_000 }))
    broadcaster.yield(updating: { $0 += 1_000 }) { .value($0) }
    let second = broadcaster.subscribe(policy: .keepNewest(8)) { reported in .snapshot(reported) }
    broadcaster.yield { .value($0) }
    #expect(broadcaster.reported == 1_111)
    broadcaster.finish(final: .final)
    #expect(await collectAll(first) == [.snapshot(111), .value(2), .value(3), .final])
    #expect(await collectAll(second) == [.snapshot(1_111), .value(3), .final])
  }

  @Test func idleSubscribersShareOneLog_E4() async {
    let broadcaster = makeBroadcaster()
    let idle = (0..<1_000).map { _ in broadcaster.subscribe(policy: .keepNewest(3)) { nil } }
    let widest = broadcaster.subscribe(policy: .keepNewest(5)) { nil }
    broadcaster.yieldValues(100)
    // One log for all, not a buffer each: the newest five (the widest capacity), dropped from
    // by every yield without visiting the subscribers.
    #expect(broadcaster.loggedCount == 5)

    var first = idle[0].makeAsyncIterator()
    #expect(await take(4, from: &first) == [.lost(97), .value(97), .value(98), .value(99)])
    var last = idle[999].makeAsyncIterator()
    #expect(await take(4, from: &last) == [.lost(97), .value(97), .value(98), .value(99)])
    var wide = widest.makeAsyncIterator()
    #expect(
      await take(6, from: &wide) == [.lost(95), .value(95), .value(96), .value(97), .value(98), .value(99)])

    broadcaster.finish(final: .final)
    #expect(await drain(&first) == [.final])
    var middle = idle[500].makeAsyncIterator()
    #expect(await drain(&middle) == [.lost(97), .value(97), .value(98), .value(99), .final])
  }

  @Test func theLogNeverHoldsMoreThanTheWidestCapacityOfItsSubscribers_E4() async {
    let broadcaster = makeBroadcaster()
    let narrow = broadcaster.subscribe(policy: .keepNewest(3)) { nil }
    let middle = broadcaster.subscribe(policy: .keepNewest(8)) { nil }
    broadcaster.yieldValues(50)
    #expect(broadcaster.loggedCount == 8)
    let wide = broadcaster.subscribe(policy: .keepNewest(20)) { nil }
    broadcaster.yieldValues(30)
    #expect(broadcaster.loggedCount == 20)
    broadcaster.finish(final: .final)
    #expect(await collectAll(narrow) == [.lost(77)] + values(77..<80) + [.final])
    #expect(await collectAll(middle) == [.lost(72)] + values(72..<80) + [.final])
    #expect(await collectAll(wide) == [.lost(10)] + values(60..<80) + [.final])
  }

  @Test func subscribersWaitingInNextAreEachHandedTheElementAndNothingIsLogged_E4() async {
    let broadcaster = makeBroadcaster()
    let sequences = (0..<3).map { _ in broadcaster.subscribe(policy: .default) { nil } }
    let subscriber = IdleExecutor()
    let received = await withTaskGroup(of: (Int, [Event]).self) { group in
      for (index, sequence) in sequences.enumerated() {
        group.addTask(executorPreference: subscriber) {
          var iterator = sequence.makeAsyncIterator()
          return (index, await take(2, from: &iterator) + drain(&iterator))
        }
      }
      // All three wait: each is handed the element, and the log keeps nothing.
      await waitForWaiters(broadcaster, 3, on: subscriber)
      broadcaster.yieldValues(1)
      #expect(broadcaster.loggedCount == 0)
      await waitForWaiters(broadcaster, 3, on: subscriber)
      broadcaster.yieldValues(1)
      #expect(broadcaster.loggedCount == 0)
      await waitForWaiters(broadcaster, 3, on: subscriber)
      broadcaster.finish(final: .final)
      var received: [Int: [Event]] = [:]
      for await (index, events) in group { received[index] = events }
      return received
    }
    #expect(received == [0: values(0..<2) + [.final], 1: values(0..<2) + [.final], 2: values(0..<2) + [.final]])
  }

  @Test func whatEverySubscriberHasReadIsNotKept_E4() async {
    let broadcaster = makeBroadcaster()
    let one = broadcaster.subscribe(policy: .default) { nil }
    var oneIterator = one.makeAsyncIterator()
    do {
      let other = broadcaster.subscribe(policy: .default) { nil }
      broadcaster.yieldValues(10)
      #expect(broadcaster.loggedCount == 10)

      #expect(await take(10, from: &oneIterator) == values(0..<10))
      #expect(broadcaster.loggedCount == 10)  // the other has not read them
      var otherIterator = other.makeAsyncIterator()
      #expect(await take(4, from: &otherIterator) == values(0..<4))
      #expect(await take(6, from: &otherIterator) == values(4..<10))
      #expect(broadcaster.loggedCount == 0)
      broadcaster.yieldValues(2)
      #expect(await take(1, from: &otherIterator) == values(10..<11))
    }
    // The other subscription is dropped: the log is what `one` has not read.
    #expect(broadcaster.subscriberCount == 1)
    #expect(broadcaster.loggedCount == 2)
    #expect(await take(2, from: &oneIterator) == values(10..<12))
    #expect(broadcaster.loggedCount == 0)
  }

  @Test func theLogKeepsOnlyWhatSomeSubscriberCanStillRead_E4() async {
    let broadcaster = makeBroadcaster()
    let reader = broadcaster.subscribe(policy: .keepNewest(1 << 20)) { nil }
    let idle = broadcaster.subscribe(policy: .keepNewest(4)) { nil }
    var readerIterator = reader.makeAsyncIterator()
    var read: [Event] = []
    for _ in 0..<1_000 {
      broadcaster.yieldValues(1)
      read += await take(1, from: &readerIterator)
    }
    #expect(read == values(0..<1_000))
    // Only the idle one's newest four can still be read; between trims the log holds at most
    // twice what its last trim kept, plus 64.
    #expect(broadcaster.loggedCount <= 2 * 4 + 64)
    var idleIterator = idle.makeAsyncIterator()
    #expect(await take(3, from: &idleIterator) == [.lost(996), .value(996), .value(997)])
    #expect(await take(2, from: &idleIterator) == [.value(998), .value(999)])
    #expect(broadcaster.loggedCount == 0)  // both have read it all
  }

  @Test func aLaggingSubscriberThatReadsIsDisconnectedOnlyWhenItsUnreadExceedCapacity_E4() async {
    let broadcaster = makeBroadcaster()
    let reader = broadcaster.subscribe(policy: .disconnectOnLag(3)) { nil }
    let idle = broadcaster.subscribe(policy: .disconnectOnLag(3)) { nil }
    broadcaster.yieldValues(3)
    var iterator = reader.makeAsyncIterator()
    #expect(await take(2, from: &iterator) == values(0..<2))
    broadcaster.yieldValues(1)  // idle: 4 unread; reader: 2
    #expect(broadcaster.subscriberCount == 1)
    broadcaster.yieldValues(1)  // reader: 3 unread, at capacity
    #expect(broadcaster.subscriberCount == 1)
    broadcaster.yieldValues(1)  // reader: 4 unread
    #expect(broadcaster.subscriberCount == 0)
    #expect(await drain(&iterator) == [.lagged])
    var idleIterator = idle.makeAsyncIterator()
    #expect(await drain(&idleIterator) == [.lagged])
  }

  @Test func cancellingAnIdleLaggingSubscriberLeavesTheOthersTheirOrder_E4_E6() async {
    let broadcaster = makeBroadcaster()
    let cancelled = broadcaster.subscribe(policy: .disconnectOnLag(2)) { nil }
    let kept = broadcaster.subscribe(policy: .disconnectOnLag(4)) { nil }
    broadcaster.yieldValues(1)
    var cancelledIterator = cancelled.makeAsyncIterator()
    #expect(await take(1, from: &cancelledIterator) == [.value(0)])
    _ = consume cancelledIterator
    broadcaster.yieldValues(3)
    #expect(broadcaster.subscriberCount == 1)
    broadcaster.finish(final: .final)
    #expect(await collectAll(kept) == values(0..<4) + [.final])
  }
}
