extension ControllerNode {
  /// Emits one event on this controller's stream and on the tree-wide streams
  /// of itself and every ancestor that has subscribers (SPEC E1–E3).
  ///
  /// Called after the link lock is released; the broadcasters have their own
  /// short locks and never block on a subscriber.
  func emit(_ kind: LifecycleEvent.Kind, transaction: TransactionID?) {
    let (path, treeStreams, environment) = TreeLock.withLock { _route() }
    let timestamp = environment.elapsed()
    let id = self.id
    let name = self.name
    let reported = self.reported
    events.yield { sequenceNumber in
      reported.withLock { $0.apply(kind) }
      return LifecycleEvent(
        controller: id, name: name, path: path, sequenceNumber: sequenceNumber,
        transaction: transaction, timestamp: timestamp, kind: kind)
    }
    for stream in treeStreams {
      stream.yield { sequenceNumber in
        LifecycleEvent(
          controller: id, name: name, path: path, sequenceNumber: sequenceNumber,
          transaction: transaction, timestamp: timestamp, kind: kind)
      }
    }
  }
}

extension ControllerNode {
  /// Ends the controller's streams: each subscriber gets one `terminated`
  /// event, then its sequence finishes; later subscribers get it at once.
  func finishStreams() {
    let (path, tree) = TreeLock.withLock { (_path(), _treeEvents) }
    var final = terminatedEvent()
    final.path = path
    events.finish(final: final)
    tree?.finish(final: final)
  }
}
