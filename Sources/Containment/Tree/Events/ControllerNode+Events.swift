import ContainmentLocking
import Synchronization

extension ControllerNode {
  /// Emits one event on this controller's stream and on the tree-wide streams
  /// of itself and every ancestor that has subscribers (E1–E3).
  ///
  /// Called after the link lock is released; the broadcasters have their own
  /// short locks and never block on a subscriber.
  func emit(_ kind: LifecycleEvent.Kind, transaction: TransactionID?) {
    // Nobody listening anywhere this event could go: keep only what later
    // subscribers rely on (numbering and the reported state), skip the route
    // walk, the path string and the clock read. Only a change of the
    // reported parent takes the broadcaster's lock; with a subscriber, the
    // event takes it once, to be yielded.
    let reports = ReportedState.changes(with: kind)
    // Whether this controller's own stream may have a subscriber: then the
    // event is built and yielded (one lock), never asked about first.
    var ownObserved = false
    func advanceIfUnobserved() -> Bool {
      if ownObserved { return false }
      // An appearance change is recorded with the numbering, without the lock.
      let advanced =
        if !reports {
          events.advanceWithoutLock()
        } else if let report = ReportedState.unlockedReport(for: kind) {
          events.advanceWithoutLock(reporting: report)
        } else {
          events.yieldIfUnobserved(updating: { $0.apply(kind) })
        }
      ownObserved = !advanced
      return advanced
    }
    if TreeEventStreams.count == 0, advanceIfUnobserved() { return }
    let position = TreeLock.withLock(self) { held in self.position(held) }
    // No tree stream on its way and nobody on its own stream: nothing to build.
    if position.treeStreams.isEmpty, advanceIfUnobserved() { return }
    let timestamp = position.eventEnvironment.elapsed()
    // The name and the path are borrowed (from this node and the position
    // it keeps alive here) until each event copies them.
    position.withPath { path in
      events.yield(updating: { if reports { $0.apply(kind) } }) { sequenceNumber in
        LifecycleEvent(
          controller: id, name: name, path: path, sequenceNumber: sequenceNumber,
          transaction: transaction, timestamp: timestamp, kind: kind)
      }
      for stream in position.treeStreams {
        stream.yield { sequenceNumber in
          LifecycleEvent(
            controller: id, name: name, path: path, sequenceNumber: sequenceNumber,
            transaction: transaction, timestamp: timestamp, kind: kind)
        }
      }
    }
  }
}

extension ControllerNode {
  /// Ends the controller's streams: each subscriber gets one `terminated`
  /// event, then its sequence finishes; later subscribers get it at once.
  ///
  /// The final event carries the controller's path when a subscriber can
  /// receive it now; otherwise (nobody listening) only its name, so that
  /// ending a tree of n controllers stays O(n) at any depth.
  func finishStreams() {
    let (position, tree) = TreeLock.withLock(self) { held in (self.position(held), self[held].eventRouting.treeEvents) }
    var final = terminatedEvent()
    if events.subscriberCount > 0 || (tree?.subscriberCount ?? 0) > 0 { final.path = position.path }
    events.finish(final: final)
    tree?.finish(final: final)
  }
}

/// How many tree-wide streams exist in the process.
///
/// While there are none, an event with no subscriber on its own controller's
/// stream reaches nobody, so emission can skip the route walk. A stream created
/// concurrently with an emission may miss that event, exactly as if it had
/// subscribed just after.
enum TreeEventStreams {
  private static let live = Atomic<Int>(0)
  static var count: Int { live.load(ordering: .acquiring) }
  static func created() { live.add(1, ordering: .releasing) }
  static func released() { live.subtract(1, ordering: .releasing) }
}
