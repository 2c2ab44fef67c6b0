import Containment
import ContainmentTestKit

/// Shrinks a failing run to a short list of operations that still fails
/// (delta debugging).
///
/// A candidate list is tried by building a fresh world from the same seed,
/// starting all its operations at once, and checking; each candidate gets
/// several tries, because interleavings vary.
struct Reducer {
  let options: Options
  let budget: Duration
  let triesPerCandidate = 4
  private let clock = ContinuousClock()

  /// The operations to start from: those the finding names, plus the
  /// operations that overlapped them in time and touched the same controllers
  /// or the same built-in container; and, for a built-in container, the
  /// latest earlier requests on it since the snapshot (up to 200 ms; its order, which a
  /// reorder may have changed without an event, is not a precondition
  /// `World.prepare` recreates).
  ///
  /// Trials start from the last quiescent snapshot before them, and each
  /// operation starts at its original offset from the first one.
  static func candidates(for finding: Finding, in history: History, leaves: Set<Int>) -> (
    Model, [(Duration, Operation)]
  ) {
    let records = history.records.filter { !$0.nested }
    var named = records.filter { finding.operations.contains($0.operation.id) }
    if named.isEmpty { named = Array(records.suffix(12)) }
    guard let earliest = named.map(\.start).min(), let to = named.map(\.end).max() else { return (history.initial, []) }
    let from = earliest - .milliseconds(2)
    func touches(_ operation: Operation) -> Set<Int> {
      var keys = Set(operation.targets).intersection(leaves)
      if operation.kind.isContainerKind, let root = operation.targets.first,
        let tree = history.roots.firstIndex(of: root)
      {
        switch operation.kind {
        case .selectTab, .setTabIndex, .setTabs: keys.insert(-2 - 3 * tree)
        case .traitFlip, .showColumn: keys.insert(-3 - 3 * tree)
        default: keys.insert(-1 - 3 * tree)
        }
      }
      return keys
    }
    let touched = named.reduce(into: Set<Int>()) { $0.formUnion(touches($1.operation)) }
    let snapshot = history.snapshots.last { $0.0 <= from } ?? history.snapshots.first ?? (.zero, history.initial)
    var chosen = named
    let containers = touched.filter { $0 < 0 }
    for record in records.reversed()
    where record.start >= max(snapshot.0, from - .milliseconds(200)) && record.end < from {
      if chosen.count >= named.count + 6 { break }
      if !containers.isDisjoint(with: touches(record.operation)) { chosen.append(record) }
    }
    for record in records
    where record.end >= from && record.start <= to && !named.contains(where: { $0.operation.id == record.operation.id })
    {
      if chosen.count >= 16 { break }
      if !touched.isDisjoint(with: touches(record.operation)) { chosen.append(record) }
    }
    let first = chosen.map(\.start).min() ?? earliest
    return (snapshot.1, chosen.sorted { $0.start < $1.start }.map { ($0.start - first, $0.operation) })
  }

  /// The shortest failing list found within the budget, and whether the
  /// starting list reproduced the failure at all.
  func reduce(from model: Model, _ start: [(Duration, Operation)], category: Finding.Category) async
    -> (operations: [Operation], reproduced: Bool, trials: Int)
  {
    let deadline = clock.now + budget
    var trials = 0
    var jitter = SplitMix64(seed: options.seed ^ 0x7121)
    func fails(_ operations: [(Duration, Operation)], tries: Int? = nil) async -> Bool {
      for _ in 0..<(tries ?? triesPerCandidate) {
        if clock.now >= deadline { return false }
        trials += 1
        var trialOptions = options
        trialOptions.quiescentEvery = 0
        // Later rounds re-prepare outside the replayed window, so only one round
        // when the finding is about the replay itself.
        let rounds = category == .linearizability || category == .unexplained ? 1 : 10
        let trial = StressRun.Trial(start: model, operations: operations, rounds: rounds, jitterSeed: jitter.next())
        let result = await StressRun.execute(options: trialOptions, trial: trial, watchdog: nil)
        let found = result.summary.findings
        if options.verbose {
          let kinds = found.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
          Terminal.error("trial \(trials): \(operations.count) ops; findings \(kinds)\n")
        }
        if found.count(category) > 0 { return true }
      }
      return false
    }
    guard await fails(start, tries: 20) else { return (start.map(\.1), false, trials) }
    var current = start
    var granularity = 2
    while current.count >= 2, clock.now < deadline {
      let size = (current.count + granularity - 1) / granularity
      let chunks = stride(from: 0, to: current.count, by: size).map {
        Array(current[$0..<min($0 + size, current.count)])
      }
      var reduced = false
      for chunk in chunks {
        let ids = Set(chunk.map(\.1.id))
        let complement = current.filter { !ids.contains($0.1.id) }
        if await fails(chunk) {
          current = chunk
          granularity = 2
          reduced = true
          break
        }
        if chunks.count > 2, await fails(complement) {
          current = complement
          granularity = max(granularity - 1, 2)
          reduced = true
          break
        }
      }
      if !reduced {
        if granularity >= current.count { break }
        granularity = min(current.count, granularity * 2)
      }
    }
    return (current.map(\.1), true, trials)
  }
}

extension Finding {
  /// The finding to reduce: the most telling kind first.
  static func mostTelling(_ findings: [Finding]) -> Finding? { reductionOrder(findings).first }

  /// The first finding of each kind, the most telling kind first: what the
  /// reducer tries, in turn, until one reproduces.
  static func reductionOrder(_ findings: [Finding]) -> [Finding] {
    let order: [Category] = [
      .atomicity, .grammar, .linearizability, .invariant, .hookLog, .subscriber, .expectedError, .unexplained,
      .unexpectedSetup,
    ]
    let ranked = order.compactMap { category in
      findings.first { $0.category == category && !(category == .linearizability && $0.operations.isEmpty) }
    }
    if !ranked.isEmpty { return ranked }
    return findings.first { $0.isViolation && ![.slowdown, .growth, .timeLimit].contains($0.category) }.map { [$0] }
      ?? []
  }

  /// Deadlocks and leaks are counted apart; everything else is a violation.
  var isViolation: Bool { category.isViolation }
}
