import Containment

/// Shrinks a failing run to a short list of operations that still fails
/// (delta debugging). A candidate list is tried by building a fresh world
/// from the same seed, starting all its operations at once, and checking;
/// each candidate gets several tries, because interleavings vary.
struct Reducer {
  let options: Options
  let budget: Duration
  let triesPerCandidate = 8
  private let clock = ContinuousClock()

  /// The operations to start from: those the finding names, plus the
  /// operations that overlapped them in time and touched the same controllers.
  static func candidates(for finding: Finding, in history: History) -> [Operation] {
    let records = history.records.filter { !$0.nested }
    let named = records.filter { finding.operations.contains($0.operation.id) }
    guard !named.isEmpty else { return Array(records.suffix(24).map(\.operation)) }
    let from = named.map(\.start).min()! - .milliseconds(2)
    let to = named.map(\.end).max()!
    let touched = Set(named.flatMap(\.operation.targets))
    var chosen = named.map(\.operation)
    for record in records where record.end >= from && record.start <= to && !finding.operations.contains(record.operation.id) {
      if !touched.isDisjoint(with: record.operation.targets) { chosen.append(record.operation) }
      if chosen.count >= 24 { break }
    }
    return chosen.sorted { $0.id < $1.id }
  }

  /// The shortest failing list found within the budget, and whether the
  /// starting list reproduced the failure at all.
  func reduce(_ start: [Operation]) async -> (operations: [Operation], reproduced: Bool, trials: Int) {
    let deadline = clock.now + budget
    var trials = 0
    func fails(_ operations: [Operation]) async -> Bool {
      for _ in 0..<triesPerCandidate {
        if clock.now >= deadline { return false }
        trials += 1
        var trialOptions = options
        trialOptions.quiescentEvery = 0
        let result = await StressRun.execute(options: trialOptions, operations: operations, watchdog: nil)
        var checks = Checks(history: result.history)
        checks.runAll()
        if !(result.findings + checks.findings).filter(\.isViolation).isEmpty { return true }
      }
      return false
    }
    guard await fails(start) else { return (start, false, trials) }
    var current = start
    var granularity = 2
    while current.count >= 2, clock.now < deadline {
      let size = (current.count + granularity - 1) / granularity
      let chunks = stride(from: 0, to: current.count, by: size).map { Array(current[$0..<min($0 + size, current.count)]) }
      var reduced = false
      for chunk in chunks {
        let ids = Set(chunk.map(\.id))
        let complement = current.filter { !ids.contains($0.id) }
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
    return (current, true, trials)
  }
}

extension Finding {
  /// Deadlocks and leaks are counted apart; everything else is a violation.
  var isViolation: Bool { category != .deadlock && category != .leak }
}
