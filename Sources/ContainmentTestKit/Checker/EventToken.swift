import Containment

/// One event as the linearizability check compares it: its kind with every
/// controller replaced by its twin in the concurrent fixture (so that events
/// of two fixtures compare equal), an interrupted transition read as a
/// completed one (cancellation cuts an animation short; the hooks are the
/// same: T4).
///
/// Whether a new transaction starts with the event is kept for messages
/// only, not compared: which transaction a view's load runs in depends on
/// who reads the view first and on whether its container's queue is free at
/// that moment (a container's own load-time layout runs at once when its
/// queue is free, else queued), so the same hooks may be grouped otherwise
/// by a concurrent run than by any sequential one. R4 orders hooks, not
/// their grouping; R1 is checked on the concurrent run itself.
struct EventToken: Hashable, Sendable {
  var kind: LifecycleEvent.Kind
  var opensTransaction: Bool

  static func == (lhs: EventToken, rhs: EventToken) -> Bool { lhs.kind == rhs.kind }
  func hash(into hasher: inout Hasher) { hasher.combine(kind) }

  /// The tokens of one controller's `events`, recorded on the fixture named
  /// by `naming`, in terms of the fixture named by `canonical`.
  ///
  /// Events outside any transaction are left out: they are emitted when a
  /// call is made, not in a transaction's turn (a refused call's
  /// `callIgnored`, an unbalanced appearance call from outside: A4), so they
  /// may fall anywhere among a concurrent transaction's events, and R4 does
  /// not order them. (The transaction check reports hooks and container
  /// events outside any transaction.)
  static func of(_ events: [LifecycleEvent], naming: ControllerNaming, canonical: ControllerNaming) -> [EventToken] {
    var tokens: [EventToken] = []
    tokens.reserveCapacity(events.count)
    var previous: TransactionID?
    for event in events {
      guard let transaction = event.transaction else { continue }
      let opens = previous != transaction
      tokens.append(EventToken(kind: naming.translate(event.kind, into: canonical), opensTransaction: opens))
      previous = transaction
    }
    return tokens
  }

  /// `tokens` around `position`, described with `naming`, for a message.
  static func excerpt(_ tokens: [EventToken], around position: Int, naming: ControllerNaming) -> String {
    let lower = max(0, position - 4)
    let upper = min(tokens.count, position + 4)
    guard lower < upper else { return "[]" }
    let described = tokens[lower..<upper].map { ($0.opensTransaction ? "| " : "") + naming.describe($0.kind) }
    return "[\(lower > 0 ? "…, " : "")\(described.joined(separator: ", "))\(upper < tokens.count ? ", …" : "")]"
  }
}
