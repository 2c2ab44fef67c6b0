import ContainmentTestKit
import Testing

@testable import Containment

/// §7: lifecycle event streams.
@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
  /// Emits exactly `count` events on `c` (each `willMove(toParent: nil)` call is one hook).
  private func emit(_ count: Int, on c: RecordingController) async {
    for _ in 0..<count { await c.willMove(toParent: nil) }
  }

  @Test func everySubscriberGetsEveryEventInHookOrder_E1() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    var first = c.events().makeAsyncIterator()
    var second = c.events().makeAsyncIterator()
    try await f.install(c, in: p)
    let expected: [LifecycleEvent.Kind] = [
      .subscribed(state: .disappeared, parent: nil), .willMove(toParent: p.node.id), .viewDidLoad,
      .didMove(toParent: p.node.id),
    ]
    #expect(await take(4, from: &first).map(\.kind) == expected)
    #expect(await take(4, from: &second).map(\.kind) == expected)
  }

  /// One `events()` value is one subscription: its first iterator gets the
  /// events, a second iterator of the same value ends at once (E1: subscribe
  /// once per consumer).
  ///
  /// Exercises `LifecycleEvents`' own iterator.
  @Test func oneSubscriptionFeedsOnlyItsFirstIterator_E1() async throws {
    let f = Fixture()
    let c = f.controller("C")
    let subscription = c.events()
    var first = subscription.makeAsyncIterator()
    var second = subscription.makeAsyncIterator()
    #expect(await second.next() == nil)
    await emit(2, on: c)
    #expect(
      await take(3, from: &first).map(\.kind) == [
        .subscribed(state: .disappeared, parent: nil), .willMove(toParent: nil), .willMove(toParent: nil),
      ])
    #expect(await second.next() == nil)
  }

  @Test func treeStreamCarriesDescendantsWithIdentityAndPath_E2() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let p = f.controller("P")
    let c = f.controller("C")
    try await f.install(p, in: r)
    var tree = r.treeEvents().makeAsyncIterator()
    try await f.install(c, in: p)
    let events = await take(5, from: &tree)
    #expect(
      events.map { "\($0.path) \($0.kind)" } == [
        "R subscribed(state: disappeared, parent: nil)",
        "R/P childAdded(\(c.node.id))",
        "R/P/C willMove(toParent: Optional(\(p.node.id)))",
        "R/P/C viewDidLoad",
        "R/P/C didMove(toParent: Optional(\(p.node.id)))",
      ])
    #expect(events.dropFirst().map(\.controller) == [p.node.id, c.node.id, c.node.id, c.node.id])
    #expect(events[2].name == "C")
  }

  @Test func treeStreamKeepsTheRemovalEventsOfARemovedChild_E2() async throws {
    let f = Fixture()
    let r = f.controller("R")
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(r)
    try await f.install(p, in: r)
    try await f.install(c, in: p)
    var tree = r.treeEvents().makeAsyncIterator()
    _ = await tree.next()
    await p.willMove(toParent: nil)
    try await p.removeFromParent()
    let events = await take(7, from: &tree)
    #expect(
      events.map { "\($0.path) \($0.kind.name)" } == [
        "R/P willMove", "R childRemoved",
        "R/P viewWillDisappear", "R/P/C viewWillDisappear", "R/P viewDidDisappear", "R/P/C viewDidDisappear",
        "R/P didMove",
      ])
    withExtendedLifetime(window) {}
  }

  @Test func treeStreamSeesAPoppedControllersWholeRemoval_E2() async throws {
    let f = Fixture()
    let a = f.controller("A")
    let b = f.controller("B")
    let window = Window()
    let nav = try await f.onScreenNavigation([a, b], in: window)
    var tree = nav.treeEvents().makeAsyncIterator()
    _ = await tree.next()
    _ = try await nav.pop(animated: false).value
    var seen: [String] = []
    while seen.last != "Nav transitionEnded", let event = await tree.next() {
      seen.append("\(event.path) \(event.kind.name)")
    }
    #expect(
      seen == [
        "Nav/B willMove", "Nav/A viewDidLoad", "Nav transitionBegan", "Nav/B viewWillDisappear", "Nav/A viewWillAppear",
        "Nav/A viewIsAppearing", "Nav childRemoved", "Nav/B viewDidDisappear", "Nav/A viewDidAppear",
        "Nav/B didMove", "Nav transitionEnded",
      ])
  }

  @Test func eventsAreNumberedInOrderAndShareTheirTransaction_E3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let a = f.controller("A")
    let window = try await f.onScreen(p)
    try await p.addChild(a)
    try await p.view.addSubview(await a.view)
    var events = a.events().makeAsyncIterator()
    await a.willMove(toParent: nil)
    try await a.removeFromParent()
    let received = await take(5, from: &events)
    #expect(
      received.map(\.kind) == [
        .subscribed(state: .appeared, parent: p.node.id),
        .willMove(toParent: nil), .viewWillDisappear(animated: false), .viewDidDisappear(animated: false),
        .didMove(toParent: nil),
      ])
    let numbers = received.dropFirst().map(\.sequenceNumber)
    #expect(numbers == Array(numbers[0]..<(numbers[0] + 4)))
    // willMove(nil) was the caller's own call; the removal's three events share one transaction.
    #expect(received[1].transaction == nil)
    #expect(Set(received[2...4].map(\.transaction)).count == 1)
    #expect(received[2].transaction != nil)
    withExtendedLifetime(window) {}
  }

  @Test func slowSubscriberLearnsExactlyHowManyEventsItLost_E4() async throws {
    let f = Fixture()
    let c = f.controller("C")
    var fast = c.events(policy: .keepNewest(1024)).makeAsyncIterator()
    var slow = c.events(policy: .keepNewest(3)).makeAsyncIterator()
    await emit(10, on: c)
    let all = await take(11, from: &fast)
    #expect(all.count == 11)
    #expect(all.dropFirst().allSatisfy { $0.kind == .willMove(toParent: nil) })
    // The slow one keeps its snapshot (E5) and the newest 3 of the 10 events, and is told it lost 7.
    let slowEvents = await take(5, from: &slow)
    #expect(
      slowEvents.map(\.kind) == [.subscribed(state: .disappeared, parent: nil), .eventsLost(count: 7)]
        + Array(repeating: .willMove(toParent: nil), count: 3))
    #expect(slowEvents.dropFirst(2).map(\.sequenceNumber) == all.suffix(3).map(\.sequenceNumber))
  }

  @Test func laggingSubscriberCanChooseToBeDisconnected_E4() async throws {
    let f = Fixture()
    let c = f.controller("C")
    var strict = c.events(policy: .disconnectOnLag(4)).makeAsyncIterator()
    var other = c.events().makeAsyncIterator()
    await emit(5, on: c)
    #expect(await take(3, from: &strict).map(\.kind) == [.subscribed(state: .disappeared, parent: nil), .lagged])
    #expect(await take(6, from: &other).count == 6)
    #expect(c.node.events.subscriberCount == 1)
  }

  @Test func firstElementReportsTheCurrentState_E5() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let window = try await f.onScreen(p)
    try await f.install(c, in: p)
    var events = c.events().makeAsyncIterator()
    #expect(await events.next()?.kind == .subscribed(state: .appeared, parent: p.node.id))
    await c.willMove(toParent: nil)
    #expect(await events.next()?.kind == .willMove(toParent: nil))
    withExtendedLifetime(window) {}
  }

  @Test func terminationIsDeliveredExactlyOnceAlsoToLateSubscribers_E6() async throws {
    let f = Fixture()
    let c = f.controller("C")
    var first = c.events().makeAsyncIterator()
    var second = c.events().makeAsyncIterator()
    await c.tearDown()
    let expected: [LifecycleEvent.Kind] = [
      .subscribed(state: .disappeared, parent: nil), .viewDidTearDown, .terminated,
    ]
    #expect(await take(4, from: &first).map(\.kind) == expected)
    #expect(await take(4, from: &second).map(\.kind) == expected)
    var late = c.events().makeAsyncIterator()
    #expect(await take(3, from: &late).map(\.kind) == [.terminated])
  }

  @Test func releasingAControllerTerminatesItsStreams_E6() async throws {
    let f = Fixture()
    var iterator: LifecycleEvents.AsyncIterator
    do {
      let c = f.controller("C")
      iterator = c.events().makeAsyncIterator()
      await c.willMove(toParent: nil)
    }
    #expect(
      await take(4, from: &iterator).map(\.kind) == [
        .subscribed(state: .disappeared, parent: nil), .willMove(toParent: nil), .terminated,
      ])
  }

  @Test func cancellingOneSubscriberLeavesOthersIntact_E6() async throws {
    let f = Fixture()
    let c = f.controller("C")
    var other = c.events().makeAsyncIterator()
    let subscriber = IdleExecutor()
    let cancelled = Task(executorPreference: subscriber) {
      var iterator = c.events().makeAsyncIterator()
      _ = await iterator.next()
      return await iterator.next()
    }
    await subscriber.idle()
    #expect(c.node.events.subscriberCount == 2)
    #expect(c.node.events.waitingSubscriberCount == 1)
    cancelled.cancel()
    #expect(await cancelled.value == nil)
    #expect(c.node.events.subscriberCount == 1)
    await emit(1, on: c)
    #expect(
      await take(2, from: &other).map(\.kind) == [
        .subscribed(state: .disappeared, parent: nil), .willMove(toParent: nil),
      ])
  }

  @Test func callerCanAwaitAState_E7() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let window = Window()
    let waiter = IdleExecutor()
    let appeared = Task(executorPreference: waiter) { try await p.waitUntil(.appeared) }
    await waiter.idle()
    #expect(p.node.events.waitingSubscriberCount == 1)
    try await window.setRootViewController(p)
    try await appeared.value
    // Already there: returns at once.
    try await p.waitUntil(.appeared)
    #expect(p.node.appearanceState == .appeared)
    await p.tearDown()
    await #expect(throws: ContainmentError.tornDown(p.node.id)) { try await p.waitUntil(.disappeared) }
  }

  @Test func perControllerOrderHoldsUnderConcurrentMutation_E3() async throws {
    let f = Fixture()
    let containers = (0..<4).map { f.controller("P\($0)") }
    let children = (0..<8).map { f.controller("C\($0)") }
    let iterators = children.map { $0.events(policy: .keepNewest(10_000)) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, child) in children.enumerated() {
        group.addTask {
          // One task per child, each move to another container: every request succeeds.
          for round in 0..<10 {
            try await containers[(index + round) % containers.count].addChild(child)
            if round % 3 == 0 { try await child.removeFromParent() }
          }
        }
      }
      try await group.waitForAll()
    }
    let log = f.log.take()
    for (child, stream) in zip(children, iterators) {
      await child.tearDown()
      var kinds: [String] = []
      for await event in stream {
        switch event.kind {
        case .willMove(let parent):
          kinds.append("willMove(\(parent.map { id in containers.first { $0.node.id == id }!.node.name } ?? "nil"))")
        case .didMove(let parent):
          kinds.append("didMove(\(parent.map { id in containers.first { $0.node.id == id }!.node.name } ?? "nil"))")
        default: continue
        }
      }
      let hooks = log.filter { $0.hasPrefix("\(child.node.name).") }.map {
        String($0.dropFirst(child.node.name.count + 1))
      }
      #expect(kinds == hooks)
      // Every request succeeded, so each child's own hooks are its task's requests in order:
      // a move first leaves the old parent, a removal adds only didMove(nil).
      let index = try #require(children.firstIndex { $0 === child })
      var expected: [String] = []
      var hasParent = false
      for round in 0..<10 {
        if hasParent { expected += ["willMove(nil)", "didMove(nil)"] }
        expected.append("willMove(P\((index + round) % containers.count))")
        hasParent = round % 3 != 0
        if !hasParent { expected.append("didMove(nil)") }
      }
      #expect(hooks == expected)
    }
  }

  @Test func eventsThatSkipTheReportedStateChangeNothingItSays_E5() {
    let id = ControllerID(rawValue: 7)
    let skipped: [LifecycleEvent.Kind] = [
      .subscribed(state: .appeared, parent: id), .viewDidLoad, .viewIsAppearing(animated: false),
      .willMove(toParent: nil), .didMove(toParent: id), .traitCollectionDidChange(TraitCollection()),
      .viewDidTearDown, .childAdded(id), .childRemoved(id, reason: .popped),
      .presented(id, style: .fullScreen), .dismissed(id, style: .fullScreen, reason: .popped),
      .transitionBegan(from: id, to: nil, options: []), .transitionEnded(from: nil, to: id, outcome: .completed),
      .batchCommitted(disappearing: [id], appearing: []), .callIgnored(.tornDown), .eventsLost(count: 2), .lagged,
      .terminated, .hookTimedOut(hook: "viewDidLoad", deadline: .seconds(1)), .hookSkipped(hook: "viewDidLoad"),
    ]
    let reporting: [LifecycleEvent.Kind] = [
      .viewWillAppear(animated: false), .viewDidAppear(animated: true), .viewWillDisappear(animated: false),
      .viewDidDisappear(animated: true), .willMove(toParent: id), .didMove(toParent: nil),
    ]
    #expect(skipped.map(ReportedState.changes(with:)) == Array(repeating: false, count: skipped.count))
    #expect(reporting.map(ReportedState.changes(with:)) == Array(repeating: true, count: reporting.count))
    let states: [AppearanceState] = [.disappeared, .appearing, .appeared, .disappearing]
    for state in states {
      for parent in [nil, ControllerID(rawValue: 3)] {
        for kind in skipped {
          var reported = ReportedState(appearance: state, parent: parent)
          reported.apply(kind)
          #expect(
            reported.appearance == state && reported.parent == parent,
            "\(kind) changed \(state), \(String(describing: parent))")
        }
      }
    }
  }
}
