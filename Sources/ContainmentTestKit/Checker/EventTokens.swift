import Containment

/// A controller's events as the linearizability check compares them: each
/// kind named (``ControllerNaming/describe(_:)``), and marked with `| ` where
/// a new transaction starts, so that the replay must group the events into
/// transactions as the concurrent run did.
enum EventTokens {
  static func of(_ events: [LifecycleEvent], naming: ControllerNaming) -> [String] {
    var tokens: [String] = []
    tokens.reserveCapacity(events.count)
    var previous: TransactionID?? = .none
    for event in events {
      let opens = previous.map { $0 != event.transaction } ?? true
      tokens.append((opens ? "| " : "") + naming.describe(event.kind))
      previous = .some(event.transaction)
    }
    return tokens
  }

  /// `tokens[range]`, clamped, joined for a message.
  static func excerpt(_ tokens: [String], around position: Int) -> String {
    let lower = max(0, position - 4)
    let upper = min(tokens.count, position + 4)
    guard lower < upper else { return "[]" }
    return
      "[\(lower > 0 ? "…, " : "")\(tokens[lower..<upper].joined(separator: ", "))\(upper < tokens.count ? ", …" : "")]"
  }
}
