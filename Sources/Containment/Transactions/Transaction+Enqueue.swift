extension Transaction {
  /// Runs `body` as a transaction on `governor`'s queue without ever waiting
  /// for the queue: at once if it is free, otherwise queued behind what holds
  /// it (from inside a transaction, by the nesting rules of ``Transaction``).
  ///
  /// For work a container starts from its own hooks (installing its children
  /// when its view loads, re-laying out on a trait change): a hook may run
  /// while its container's queue is held by a transaction that is waiting for
  /// that very hook, so waiting for the queue there could deadlock. Errors are
  /// reported only through the transaction's events.
  static func enqueue(on governor: Governor, _ body: @escaping Body<Void>) async {
    let chain = TransactionContext.current?.runningChain() ?? []
    let handle = TransactionHandle<Void>(id: .next(), queuedBehind: chain.map(\.id))
    await dispatch(body, on: governor, handle: handle, chain: chain)
  }
}
