import Containment

/// Explains one burst sequentially (R4, with the runtime itself as the
/// model): looks for an order of the burst's operations, consistent with
/// real time, that — replayed one at a time on the replay fixture — gives
/// every watched controller the events the concurrent run gave it, every
/// operation the same result, and the same tree.
///
/// The search is depth-first over the orders real time allows, the
/// operation that returned first tried first (a request that waited in a
/// queue returns after the one ahead of it); a cancelled operation that
/// threw may be left out (it may have done nothing), and is tried left out
/// first. Each order is replayed whole; the first operation after which the
/// replay stops matching ends every order that starts the same way. The
/// search is bounded by the number of operations it replays
/// (``CheckConfiguration/replayLimit``) and by the orders it walks through
/// (`maximumVisits`, orders ruled out without a replay included).
struct Linearizer<Fixture: CheckableContainer> {
  enum Explanation: Sendable {
    /// This order of the burst's operations explains it.
    case explained([Int])
    /// No order does (why the closest one fails), or the replay itself broke E3.
    case refuted(CheckFinding)
    /// The bound was reached first.
    case inconclusive
  }

  let records: [OperationRecord]
  /// Per controller, the concurrent run's events.
  let observed: [[EventToken]]
  let shape: TreeShape
  let naming: ControllerNaming
  let limit: Int
  /// Whether the first order is traced too (see `evaluate`).
  let tracesFirstOrder: Bool

  private var predecessors: [Set<Int>] = []
  private var byEnd: [Int] = []
  private var failedPrefixes: Set<[Int]> = []
  private var tried: Set<[Int]> = []
  private var spent = 0
  private var visits = 0
  /// Search steps (orders and partial orders walked through) before the search gives up.
  private static var maximumVisits: Int { 50_000 }
  private var closest: (depth: Int, order: [Int], reason: String)?

  init(
    records: [OperationRecord], observed: [[EventToken]], shape: TreeShape, naming: ControllerNaming, limit: Int,
    tracesFirstOrder: Bool
  ) {
    self.tracesFirstOrder = tracesFirstOrder
    self.records = records
    self.observed = observed
    self.shape = shape
    self.naming = naming
    self.limit = limit
    predecessors = records.map { record in
      Set(records.indices.filter { records[$0].precedes(record) })
    }
    byEnd = records.indices.sorted { records[$0].end < records[$1].end }
  }

  /// Searches, replaying on `track`; on success the track has accepted the order.
  mutating func explain(on track: inout ReplayTrack<Fixture>) async -> Explanation {
    if let order = await search(included: [], decided: [], track: &track) {
      return order
    }
    guard let closest else {
      return .refuted(CheckFinding(.linearizability, "no order of the burst's operations could be replayed"))
    }
    let operations = records.enumerated().map { index, record in
      "#\(index + 1) \(record.scheduled) in task \(record.lane + 1): \(record.outcome)\(record.wasCancelled ? " (its task was cancelled)" : "")"
    }
    let order = closest.order.map { "#\($0 + 1) \(records[$0].scheduled.name)" }
    return .refuted(
      CheckFinding(
        .linearizability,
        "no order of the burst's \(records.count) operations, consistent with real time, gives what the concurrent run gave (\(tried.count) orders replayed). The operations: \(operations.joined(separator: "; ")). The closest order, [\(order.joined(separator: ", "))], \(closest.reason)"
      ))
  }

  private mutating func search(included: [Int], decided: Set<Int>, track: inout ReplayTrack<Fixture>) async
    -> Explanation?
  {
    visits += 1
    if visits > Self.maximumVisits { return .inconclusive }
    if decided.count == records.count {
      guard tried.insert(included).inserted else { return nil }
      return await evaluate(included, track: &track)
    }
    for index in byEnd where !decided.contains(index) && predecessors[index].isSubset(of: decided) {
      for include in records[index].isOptional ? [false, true] : [true] {
        let next = include ? included + [index] : included
        if include, (1...next.count).contains(where: { failedPrefixes.contains(Array(next.prefix($0))) }) { continue }
        if spent >= limit { return .inconclusive }
        if let found = await search(included: next, decided: decided.union([index]), track: &track) {
          return found
        }
      }
    }
    return nil
  }

  /// Replays `order` and compares; records the failing prefix if it fails.
  private mutating func evaluate(_ order: [Int], track: inout ReplayTrack<Fixture>) async -> Explanation? {
    let before = track.replayed
    let scheduled = order.map { records[$0].scheduled }
    // Tracing events to operations costs a transaction per operation: the
    // first order (which usually explains the burst) is traced only when
    // asked; the others are, to prune by the first operation after which
    // they stop matching.
    let traced = tracesFirstOrder || tried.count > 1
    guard let attempt = await track.attempt(scheduled, canonical: naming, attributed: traced) else {
      return .inconclusive
    }
    spent += track.replayed - before
    if let misattributed = attempt.misattributed {
      return .refuted(CheckFinding(.transaction, misattributed))
    }
    guard let (depth, reason) = mismatch(order, attempt) else {
      track.accept(scheduled)
      return .explained(order)
    }
    if depth < order.count { failedPrefixes.insert(Array(order.prefix(depth + 1))) }
    if closest.map({ depth > $0.depth }) ?? true { closest = (depth, order, reason) }
    return nil
  }

  /// Where `controller`'s events in the concurrent run and `replayed` (its
  /// first `count`) part, in words.
  private func difference(_ controller: Int, _ replayed: [EventToken], upTo count: Int) -> String {
    let seen = observed[controller]
    let at =
      zip(seen, replayed.prefix(count)).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(seen.count, count)
    return
      "\(naming.names[controller]) got \(EventToken.excerpt(seen, around: at, naming: naming)) in the concurrent run, \(EventToken.excerpt(Array(replayed.prefix(count)), around: at, naming: naming)) in the replay (they part at event \(at + 1))"
  }

  /// The position of the first operation after which the replay no longer
  /// matches (`order.count`: only the end differs), and how; nil if it matches.
  private func mismatch(_ order: [Int], _ attempt: ReplayTrack<Fixture>.Attempt) -> (Int, String)? {
    let replayed = attempt.tokens
    for (position, index) in order.enumerated() {
      let record = records[index]
      if !record.isOptional, attempt.outcomes[position] != record.outcome {
        return (
          position,
          "differs at #\(index + 1) \(record.scheduled.name): run alone it \(attempt.outcomes[position]), in the concurrent run it \(record.outcome)"
        )
      }
      guard let owners = attempt.owners else { continue }
      for controller in replayed.indices {
        let count = owners[controller].prefix { $0 <= position }.count
        let seen = observed[controller]
        if count > seen.count || Array(seen.prefix(count)) != Array(replayed[controller].prefix(count)) {
          return (
            position,
            "differs at #\(index + 1) \(record.scheduled.name): \(difference(controller, replayed[controller], upTo: count))"
          )
        }
      }
    }
    for controller in replayed.indices where replayed[controller] != observed[controller] {
      return (
        order.count,
        "differs once all are replayed: \(difference(controller, replayed[controller], upTo: replayed[controller].count))"
      )
    }
    let differences = shape.differences(from: attempt.shape, naming: naming)
    if !differences.isEmpty {
      return (order.count, "ends with another tree: \(differences.joined(separator: "; "))")
    }
    return nil
  }
}
