import Synchronization

/// Which transaction a controller is engaged in: the last one that delivered
/// it a hook.
///
/// A transaction that has delivered a hook to a controller may still owe it
/// more (a `didMove` after its `viewDidAppear`, a presenter's
/// `viewDidDisappear` after the presented controller's `viewDidAppear`), so
/// until that transaction ends, a request its hooks make that touches the
/// controller is queued behind it (R2; ``Transaction``, rule 4).
///
/// One relaxed atomic store per hook delivered inside a transaction; read
/// only when a hook makes a request. Ids are never reused, so a mark left by
/// a transaction that has ended matches no running transaction and needs no
/// clearing.
struct Engagement: ~Copyable, Sendable {
  private let owner = Atomic<UInt64>(0)

  init() {}

  /// Marks the controller as engaged in `transaction`.
  ///
  /// Called by the transaction's own task just before it runs the hook, so the
  /// hook (and any task it creates) reads the mark.
  func engage(in transaction: TransactionID) {
    owner.store(transaction.rawValue, ordering: .relaxed)
  }

  /// The transaction the controller was last engaged in, if any.
  var transaction: TransactionID? {
    let raw = owner.load(ordering: .relaxed)
    return raw == 0 ? nil : TransactionID(rawValue: raw)
  }
}
