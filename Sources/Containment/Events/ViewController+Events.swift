/// A subscription to lifecycle events: an `AsyncSequence` with one iterator.
public typealias LifecycleEvents = BroadcastSequence<LifecycleEvent>

extension ViewController {
  /// Subscribes to this controller's lifecycle events (SPEC E1–E6).
  ///
  /// - The first element is a `subscribed(state:parent:)` snapshot; live
  ///   events follow with no gap (E5).
  /// - Events arrive in the order the hooks ran, numbered contiguously per
  ///   stream (E3). Each subscriber has its own bounded buffer (`policy`):
  ///   a subscriber that falls behind gets an `eventsLost(count:)` marker with
  ///   the exact number it lost, or, with ``SubscriberPolicy/disconnectOnLag(_:)``,
  ///   a terminal `lagged` event (E4). Delivery never waits for a subscriber.
  /// - When the controller is released or torn down, each subscriber gets
  ///   one `terminated` event and the sequence ends; subscribing afterwards
  ///   yields `terminated` at once (E6).
  /// - Cancelling the iterating task ends that subscription only.
  ///
  /// Any number of subscriptions may be open at once; call this once per
  /// consumer. Synchronous and non-isolated.
  public nonisolated func events(policy: SubscriberPolicy = .default) -> LifecycleEvents {
    let node = self.node
    return node.events.subscribe(policy: policy) { node.snapshotEvent() }
  }

  /// Subscribes to the events of this controller and of every descendant, each
  /// tagged with its controller's identity and path (SPEC E2). Same delivery
  /// rules as ``events(policy:)``; the first element is this controller's
  /// snapshot. Events of one controller keep their order; events of different
  /// controllers appear in the order they were emitted.
  public nonisolated func treeEvents(policy: SubscriberPolicy = .default) -> LifecycleEvents {
    let node = self.node
    let broadcaster = TreeLock.withLock { () -> Broadcaster<LifecycleEvent> in
      if let existing = node._treeEvents { return existing }
      let created = ControllerNode.makeBroadcaster(id: node.id, name: node.name)
      if node._isTornDown || node.events.isFinished {
        created.finish(final: node.terminatedEvent())
      }
      node._treeEvents = created
      TreeEventStreams.created()
      return created
    }
    return broadcaster.subscribe(policy: policy) { node.snapshotEvent() }
  }

  /// Waits until this controller's stream reports `state` (SPEC E7): returns
  /// at once if it already has. Throws `CancellationError` if the waiting task
  /// is cancelled, ``ContainmentError/tornDown(_:)`` if the controller's stream
  /// ends first.
  public nonisolated func waitUntil(_ state: AppearanceState) async throws {
    let node = self.node
    for await event in events(policy: .keepNewest(64)) {
      switch event.kind {
      case .terminated, .lagged:
        throw ContainmentError.tornDown(node.id)
      case .eventsLost:
        if node.reported.withLock({ $0.appearance }) == state { return }
      default:
        if AppearanceState(after: event.kind) == state { return }
      }
    }
    try Task.checkCancellation()
    throw ContainmentError.tornDown(node.id)
  }
}

extension ControllerNode {
  func snapshotEvent() -> LifecycleEvent {
    let kind = reported.withLock { $0.snapshot }
    return LifecycleEvent(
      controller: id, name: name, path: name, sequenceNumber: -1, transaction: nil, timestamp: .zero, kind: kind)
  }

  func terminatedEvent() -> LifecycleEvent {
    LifecycleEvent(
      controller: id, name: name, path: name, sequenceNumber: -1, transaction: nil, timestamp: .zero, kind: .terminated)
  }
}
