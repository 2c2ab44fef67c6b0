import Containment

/// Event delivery: the runtime's fan-out (`Broadcaster`, the
/// machinery behind every `events()` and `treeEvents()` stream) to 1, 10 and
/// 100 subscribers, each a task of its own; and the end-to-end path, from a
/// hook's emission to a subscriber of `events()`.
///
/// The fan-out is driven through `LifecycleEventFanOut`, the broadcaster
/// specialized for `LifecycleEvent` inside the runtime, as the runtime's own
/// `emit` and every `events()` consumer use it. (Calling the generic
/// `Broadcaster<LifecycleEvent>` from this module instead measured
/// unspecialized code: a generic metadata lookup per call, 3× slower.)
///
/// Subscribers use the runtime's default policy (`keepNewest(1024)`); the
/// producer is flow-controlled by ``DeliveryWindow`` exactly like the raw
/// `AsyncStream` figure, so nothing is dropped and the comparison is like for
/// like. Every subscriber checks it received every event, in order.
enum EventDelivery {
  static func run(_ sampler: Sampler, options: BenchOptions) async throws -> [Figure] {
    var figures: [Figure] = []
    for subscribers in [1, 10, 100] {
      let events = options.iterations(subscribers == 100 ? 10_000 : subscribers == 10 ? 50_000 : 200_000)
      figures.append(
        try await sampler.perOperation(
          "events.fanout-\(subscribers)", group: .events,
          "event to \(subscribers) subscriber\(subscribers == 1 ? "" : "s") (Broadcaster, yield → every next())",
          operations: events, note: subscribers == 1 ? "per event" : "per event, all subscribers"
        ) { count in try await fanOut(count, subscribers: subscribers) })
    }
    let cycles = options.iterations(40_000)
    figures.append(
      try await sampler.perOperation(
        "events.hooks-unobserved", group: .events,
        "hook + its event, no subscriber (begin/endAppearanceTransition loop)", operations: cycles * 5,
        note: "per hook"
      ) { count in try await endToEnd(hooks: count, subscribe: false) })
    figures.append(
      try await sampler.perOperation(
        "events.hooks-observed", group: .events, "hook + its event, 1 subscriber of events() (same loop)",
        operations: cycles * 5, note: "per hook, until read"
      ) { count in try await endToEnd(hooks: count, subscribe: true) })
    figures.append(
      try await sampler.perOperation(
        "events.hooks-idle-1", group: .events,
        "hook + its event, 1 subscriber of events() that never reads (same loop)", operations: cycles * 5,
        note: "per hook"
      ) { count in try await endToEnd(hooks: count, subscribe: false, idleSubscribers: 1) })
    figures.append(
      try await sampler.perOperation(
        "events.hooks-idle-10000", group: .events,
        "hook + its event, 10000 subscribers of events() that never read (same loop)", operations: cycles * 5,
        note: "per hook"
      ) { count in try await endToEnd(hooks: count, subscribe: false, idleSubscribers: 10_000) })
    return figures
  }

  /// `count` events yielded through a broadcaster to `subscribers` tasks:
  /// from the first yield until every subscriber has read the last one.
  static func fanOut(_ count: Int, subscribers: Int) async throws -> Duration {
    let broadcaster = LifecycleEventFanOut(
      lostMarker: { _ in SampleEvents.event(sequenceNumber: -1) },
      laggedMarker: { SampleEvents.event(sequenceNumber: -1) })
    let streams = (0..<subscribers).map { _ in broadcaster.subscribe(policy: .default) }
    let template = SampleEvents.event(sequenceNumber: 0)
    let window = DeliveryWindow(consumers: subscribers)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      for stream in streams {
        group.addTask {
          var expected = 0
          for await event in stream where event.sequenceNumber >= 0 {
            guard event.sequenceNumber == expected else {
              throw BenchCheckFailure("subscriber got event \(event.sequenceNumber), expected \(expected)")
            }
            expected += 1
            if window.completesWindow(expected, of: count) { window.consumerCaughtUp() }
          }
          guard expected == count else { throw BenchCheckFailure("subscriber got \(expected) of \(count) events") }
        }
      }
      let watch = Stopwatch()
      await window.produce(count) { _ in
        broadcaster.yield { sequenceNumber in
          var event = template
          event.sequenceNumber = sequenceNumber
          return event
        }
      }
      let elapsed = watch.elapsed
      broadcaster.finish(final: SampleEvents.event(sequenceNumber: -1))
      try await group.waitForAll()
      return elapsed
    }
  }

  /// A controller cycles through appear and disappear with
  /// begin/endAppearanceTransition: 5 hooks and 5 events per cycle.
  ///
  /// It is the child of an off-screen container that forwards appearance
  /// manually (a controller with no parent and no window is refused an
  /// appearance). With `subscribe`, a subscriber of `events()` (default policy)
  /// reads them, flow-controlled by windows of 50 cycles, and the time runs
  /// until it has read every event. `idleSubscribers` subscriptions of
  /// `events()` are made before the loop and never read: they hold the default
  /// policy's 1,024 newest events each (lost-marker pending), at no cost per
  /// event.
  static func endToEnd(hooks count: Int, subscribe: Bool, idleSubscribers: Int = 0) async throws -> Duration {
    let parent = BenchController("parent", forwardsAppearance: false)
    let controller = BenchController("observed")
    _ = await controller.view
    try await parent.addChild(controller)
    await controller.didMove(toParent: parent)
    _ = await controller.takeHookCount()
    let cycles = count / 5
    let events = cycles * 5
    let stream = subscribe ? controller.events() : nil
    let idle = (0..<idleSubscribers).map { _ in controller.events() }
    let window = DeliveryWindow(consumers: 1, size: 250)
    let elapsed = try await withThrowingTaskGroup(of: Void.self) { group in
      if let stream {
        group.addTask {
          var received = 0
          for await event in stream {
            switch event.kind {
            case .subscribed: continue
            case .eventsLost, .lagged, .terminated: throw BenchCheckFailure("subscriber saw \(event.kind)")
            default: received += 1
            }
            if window.completesWindow(received, of: events) { window.consumerCaughtUp() }
            if received == events { return }
          }
          throw BenchCheckFailure("stream ended after \(received) events")
        }
      }
      let watch = Stopwatch()
      for cycle in 0..<cycles {
        await controller.beginAppearanceTransition(true, animated: false)
        await controller.endAppearanceTransition()
        await controller.beginAppearanceTransition(false, animated: false)
        await controller.endAppearanceTransition()
        if subscribe, (cycle + 1) % 50 == 0 || cycle + 1 == cycles {
          await window.waitForConsumers(window: (cycle + 50) / 50)
        }
      }
      let elapsed = watch.elapsed
      try await group.waitForAll()
      return elapsed
    }
    try await RuntimeOperations.expectHooks([controller], events, "appearance cycles")
    withExtendedLifetime((parent, idle)) {}
    return elapsed
  }
}
