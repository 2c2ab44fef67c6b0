import ContainmentLocking

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

extension HierarchySlotState {
  /// Its counts, waiters and marks, for diagnostics.
  fileprivate var summary: String {
    var parts = ["running \(running)", "below \(activeBelow)", "pending \(pending)"]
    if !waiters.isEmpty {
      parts.append("waiters \(waiters.count) (\(waiters.count { $0.isPending }) pending)")
    }
    if adoptions > 0 { parts.append("adoptions \(adoptions)") }
    if !treeMarks.isEmpty {
      let marks = treeMarks.map { mark in
        switch mark.governor {
        case .controller(let controller): controller.node.name + (mark.ancestors == nil ? "" : "*")
        case .window: "window" + (mark.ancestors == nil ? "" : "*")
        case nil: "a pending waiter"
        }
      }
      parts.append("tree marks [\(marks.joined(separator: ", "))] (*: ancestors counted)")
    }
    return parts.joined(separator: ", ")
  }
}

extension ControllerNode {
  /// Its hierarchical-exclusion slot, for diagnostics such as the stress
  /// harness's watchdog: nil while idle (nothing runs, waits or is marked).
  package var exclusionSnapshot: String? {
    TreeLock.withLock(self) { held in
      let state = hierarchy[held]
      guard
        state.running != 0 || state.activeBelow != 0 || state.pending != 0 || !state.waiters.isEmpty
          || !state.treeMarks.isEmpty || state.adoptions != 0
      else { return nil }
      return "\(name): \(state.summary)"
    }
  }
}

extension Window {
  /// Its hierarchical-exclusion slot (that of the tree it hosts), for
  /// diagnostics.
  package var exclusionSnapshot: String {
    TreeLock.withLock(self) { held in "window: \(hierarchy[held].summary)" }
  }
}
