extension ViewController {
  /// Runs `body` as **one** transaction on this container's queue: a custom
  /// container's change (R6).
  ///
  /// Inside `body`, the container's own code calls the ordinary verbs —
  /// `addChild`, `view.addSubview`, `didMove(toParent:)`,
  /// `willMove(toParent: nil)`, `removeFromSuperview`, `removeFromParent`,
  /// `transition(from:to:…)`, `commit(_:)`, and `begin`/
  /// `endAppearanceTransition` on its children — and each runs at once, in
  /// the order written, as part of this transaction:
  ///
  /// ```swift
  /// func show(_ child: any ViewController) async throws {
  ///   try await withTransaction { scope in
  ///     if let old = await self.active {
  ///       await old.willMove(toParent: nil)
  ///       try await old.view.removeFromSuperview()
  ///       try await old.removeFromParent()
  ///     }
  ///     try await self.addChild(child)
  ///     try await self.view.addSubview(await child.view)
  ///     await child.didMove(toParent: self)
  ///     await self.setActive(child)
  ///   }
  /// }
  /// ```
  ///
  /// - Order: the scope takes its place in this container's FIFO queue when
  ///   the call is made, and waits until the transactions ahead of it (and any
  ///   running on an ancestor or a descendant) have finished (R1, R4). A verb
  ///   called on this container from *outside* the scope meanwhile waits its
  ///   turn behind it.
  /// - Events: every event the scope causes — `childAdded`, `willMove`,
  ///   `viewDidLoad`, the appearance hooks, `didMove`, `childRemoved` — carries
  ///   its transaction id (``TransactionScope/id``).
  /// - Nested requests: a request made from a hook that runs inside the scope
  ///   (a child's `viewWillAppear` asking this container for a change) is
  ///   queued behind the scope and runs after it (R2).
  /// - Cancellation: a scope cancelled while it waits for its turn throws
  ///   `CancellationError` and `body` never runs (R3). Once `body` runs,
  ///   cancellation is `body`'s to observe.
  /// - Errors: isolation, not rollback. An error thrown by `body` (or by a
  ///   verb inside it) ends the scope with whatever the verbs before it did;
  ///   each verb leaves the invariants holding, so they hold at the scope's
  ///   end too. The error is rethrown. On a container whose tree was torn
  ///   down the scope throws ``ContainmentError/tornDown(_:)`` and `body`
  ///   never runs.
  /// - From a hook: called from inside another transaction's hook, the scope
  ///   is queued like any nested request (R2); the returned handle completes
  ///   later with `body`'s value.
  /// - Adopting: a verb inside `body` that would link in a controller whose
  ///   tree another transaction runs or waits in throws
  ///   ``ContainmentError/treeBusy(_:)`` and changes nothing: `body`'s verbs
  ///   run inside the scope and cannot wait for that tree. Outside a scope
  ///   the same verb waits for it.
  ///
  /// Keep `body` to this container's own change: a request it makes to
  /// *another* container never waits for that container's queue (it runs at
  /// once if the queue is free, else it is queued and its handle returned),
  /// and a `Task {}` started inside `body` inherits the scope until it ends.
  @discardableResult
  public nonisolated func withTransaction<Value: Sendable>(
    _ body: @escaping @Sendable (TransactionScope) async throws -> Value
  ) async throws -> TransactionHandle<Value> {
    try await Transaction.perform(on: .controller(self)) { context in
      // A torn-down container starts no scope (§8): the verbs' own
      // checks let a transaction's body finish what it started.
      if self.node.isTornDown { throw ContainmentError.tornDown(self.node.id) }
      return try await Gateway.callThrowing(UserCall("withTransaction", of: self, as: .body), in: context) {
        try await body(TransactionScope(id: context.id))
      }
    }
  }
}

/// What ``ViewController/withTransaction(_:)`` hands its body: the running
/// transaction's identity.
public struct TransactionScope: Sendable {
  /// The transaction's id: every event the scope causes carries it.
  public let id: TransactionID
}
