extension ViewController {
  /// Waits until this controller's tree is in `condition` (returns at once if
  /// it is): ``TreeCondition/idle`` — no transaction running, queued or
  /// deferred that can touch its subtree (other trees' never delay it) —
  /// ``TreeCondition/tornDown`` — its teardown
  /// ended its streams (V3) — or ``TreeCondition/faulted`` — a hook of this
  /// controller missed its deadline (V1; throws
  /// ``ContainmentError/tornDown(_:)`` if its streams end first).
  ///
  /// Does not poll: it wakes when a transaction queue becomes free, or on
  /// its controller's events. Idle is a moment, not a promise: a request made right
  /// after it returns starts a transaction again. Throws `CancellationError`
  /// if the waiting task is cancelled. Non-isolated.
  ///
  /// All three are reached on a faulted controller too (unlike an appearance
  /// state its stream can no longer report: see
  /// ``waitUntil(_:)-(AppearanceState)``).
  public nonisolated func waitUntil(_ condition: TreeCondition) async throws {
    switch condition.kind {
    case .idle:
      try await IdleWaiters.wait(for: self)
    case .faulted:
      // Subscribed first, then read (a fault between the two is on the
      // stream); read again on every event, so one lost to the buffer is not missed.
      for await event in events(policy: .keepNewest(64)) {
        if case .hookTimedOut = event.kind { return }
        if isFaulted { return }
      }
      try Task.checkCancellation()
      throw ContainmentError.tornDown(node.id)
    case .tornDown:
      // The stream ends only with `terminated` (the teardown's, as `self`
      // is alive) or when this task is cancelled.
      for await _ in events(policy: .keepNewest(1)) {}
      try Task.checkCancellation()
    }
  }
}
