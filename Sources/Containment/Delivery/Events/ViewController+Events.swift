import ContainmentLocking
/// A subscription to lifecycle events: an `AsyncSequence` with one iterator
/// (the first `makeAsyncIterator()` receives the events; a later one ends at
/// once).
///
/// Returned by ``ViewController/events(policy:)`` and
/// ``ViewController/treeEvents(policy:)``.
///
/// A concrete type rather than `BroadcastSequence<LifecycleEvent>`: its
/// `next()` is compiled inside this module, specialized for
/// `LifecycleEvent`, so a consumer in another module does not pay a generic
/// metadata lookup per element (it was a third of the delivery time).
///
/// Isolation: non-isolated; `next(isolation:)` stays on the caller's actor.
/// Cancellation: cancelling the iterating task ends the subscription (its
/// `next()` returns nil).
public struct LifecycleEvents: AsyncSequence, Sendable {
  /// Never throws.
  public typealias Failure = Never

  let base: BroadcastSequence<LifecycleEvent>

  /// The subscription's iterator.
  ///
  /// Use it from one task at a time.
  public struct AsyncIterator: AsyncIteratorProtocol {
    /// Never throws.
    public typealias Failure = Never

    var base: BroadcastSequence<LifecycleEvent>.AsyncIterator

    /// The next event, suspending until there is one; nil once the stream
    /// has ended (after `terminated` or `lagged`) or the task was cancelled.
    public mutating func next() async -> LifecycleEvent? {
      await base.next(isolation: nil)
    }

    /// Same as `next()`, without leaving the caller's actor while it waits.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> LifecycleEvent? {
      await base.next(isolation: actor)
    }
  }

  /// The iterator of this subscription (only the first call receives events).
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator())
  }
}

/// The runtime's event fan-out as the runtime itself calls it, specialized
/// for `LifecycleEvent`: for the benchmark, which would otherwise measure
/// unspecialized generic code from another module.
package struct LifecycleEventFanOut: Sendable {
  let broadcaster: Broadcaster<LifecycleEvent>

  package init(
    lostMarker: @escaping @Sendable (Int) -> LifecycleEvent,
    laggedMarker: @escaping @Sendable () -> LifecycleEvent
  ) {
    broadcaster = Broadcaster(lostMarker: lostMarker, laggedMarker: laggedMarker)
  }

  package func subscribe(policy: SubscriberPolicy) -> LifecycleEvents {
    LifecycleEvents(base: broadcaster.subscribe(policy: policy) { nil })
  }

  package func yield(_ make: (_ sequenceNumber: Int) -> LifecycleEvent) {
    broadcaster.yield(make)
  }

  package func finish(final: LifecycleEvent) {
    broadcaster.finish(final: final)
  }
}

extension ViewController {
  /// Subscribes to this controller's lifecycle events (E1–E6).
  ///
  /// - The first element is a `subscribed(state:parent:)` snapshot; live
  ///   events follow with no gap (E5).
  /// - Events arrive in the order the hooks ran, numbered contiguously per
  ///   stream (E3). Each subscriber has its own bounded policy (`policy`):
  ///   a subscriber that falls behind gets an `eventsLost(count:)` marker with
  ///   the exact number it lost, or, with ``SubscriberPolicy/disconnectOnLag(_:)``,
  ///   a terminal `lagged` event (E4). Delivery never waits for a subscriber,
  ///   and a subscriber that is not reading costs an event nothing.
  /// - When the controller is released or torn down, each subscriber gets
  ///   one `terminated` event and the sequence ends; subscribing afterwards
  ///   yields `terminated` at once (E6).
  /// - Cancelling the iterating task ends that subscription only.
  ///
  /// Any number of subscriptions may be open at once; call this once per
  /// consumer. Synchronous and non-isolated.
  public nonisolated func events(policy: SubscriberPolicy = .default) -> LifecycleEvents {
    let node = self.node
    return LifecycleEvents(base: node.events.subscribe(policy: policy) { reported in node.snapshotEvent(reported) })
  }

  /// Subscribes to the events of this controller and of every descendant, each
  /// tagged with its controller's identity and path (E2).
  ///
  /// Same delivery rules as ``events(policy:)``; the first element is this
  /// controller's snapshot. Events of one controller keep their order; events
  /// of different controllers appear in the order they were emitted.
  public nonisolated func treeEvents(policy: SubscriberPolicy = .default) -> LifecycleEvents {
    let node = self.node
    let broadcaster = TreeLock.withLock(node) { (held: LinkSection) -> Broadcaster<LifecycleEvent> in
      if let existing = node[held].eventRouting.treeEvents { return existing }
      let created = ControllerNode.makeBroadcaster(id: node.id, name: node.name)
      if node[held].supervision.isTornDown || node.events.isFinished {
        created.finish(final: node.terminatedEvent())
      }
      node[held].eventRouting.treeEvents = created
      node.invalidatePositions(held)
      TreeEventStreams.created()
      return created
    }
    return LifecycleEvents(
      base: broadcaster.subscribe(policy: policy) {
        // The controller's own stream's lock, inside the tree stream's: never the other way.
        node.snapshotEvent(node.events.reported)
      })
  }

  /// Waits until this controller's stream reports `state` (E7): returns
  /// at once if it already has.
  ///
  /// Throws `CancellationError` if the waiting task is cancelled,
  /// ``ContainmentError/tornDown(_:)`` if the controller's stream ends first.
  ///
  /// A faulted controller (V1) gets no more hooks, so its stream reports no
  /// more appearance changes: the state it reported last is final. A wait for
  /// that state returns; a wait for any other throws
  /// ``ContainmentError/faulted(_:)``, at once if the controller is already
  /// faulted, else as soon as it is (a controller whose hook hangs before it
  /// ever appears never appears: the wait ends instead of hanging). The
  /// waits of ``waitUntil(_:)-(TreeCondition)`` (idle, torn down, faulted)
  /// still end as usual on a faulted controller.
  public nonisolated func waitUntil(_ state: AppearanceState) async throws {
    let node = self.node
    for await event in events(policy: .keepNewest(64)) {
      switch event.kind {
      case .terminated, .lagged:
        throw ContainmentError.tornDown(node.id)
      case .eventsLost:
        if node.events.reported.appearance == state { return }
      default:
        if AppearanceState(after: event.kind) == state { return }
      }
      // Read after each event (the snapshot first): a fault is set before its
      // event is emitted, and a faulted controller's hooks are skipped.
      if isFaulted {
        if node.events.reported.appearance == state { return }
        throw ContainmentError.faulted(node.id)
      }
    }
    try Task.checkCancellation()
    throw ContainmentError.tornDown(node.id)
  }
}

extension ControllerNode {
  /// The `subscribed` event that tells a new subscriber `reported`.
  func snapshotEvent(_ reported: ReportedState) -> LifecycleEvent {
    let kind = reported.snapshot
    return LifecycleEvent(
      controller: id, name: name, path: name, sequenceNumber: -1, transaction: nil, timestamp: .zero, kind: kind)
  }

  func terminatedEvent() -> LifecycleEvent {
    LifecycleEvent(
      controller: id, name: name, path: name, sequenceNumber: -1, transaction: nil, timestamp: .zero, kind: .terminated)
  }
}
