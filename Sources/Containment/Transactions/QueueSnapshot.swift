/// What one container's (or window's) transaction queue holds right now, for
/// diagnostics such as the stress harness's watchdog.
///
/// A snapshot: it may be stale as soon as it is returned.
package struct QueueSnapshot: Sendable, CustomStringConvertible {
  /// Whose queue.
  package let label: String
  /// The transaction holding the queue, if it has registered (nil while free,
  /// or between two transactions of a draining task).
  package let running: TransactionID?
  /// Whether the queue is held.
  package let isHeld: Bool
  /// Requests waiting behind the holder (waiting tasks and queued jobs).
  package let pending: Int

  package var description: String {
    "\(label): \(isHeld ? "held by \(running.map { "\($0)" } ?? "a draining task")" : "free"), \(pending) pending"
  }
}

extension ControllerNode {
  /// A snapshot of this controller's transaction queue.
  package var queueSnapshot: QueueSnapshot {
    guard let queue = queueIfCreated else { return QueueSnapshot(label: name, running: nil, isHeld: false, pending: 0) }
    return QueueSnapshot(
      label: name, running: queue.currentTransaction, isHeld: queue.isHeld, pending: queue.pendingCount)
  }
}

extension Window {
  /// A snapshot of the window's transaction queue.
  package var queueSnapshot: QueueSnapshot {
    QueueSnapshot(label: "window", running: queue.currentTransaction, isHeld: queue.isHeld, pending: queue.pendingCount)
  }
}
