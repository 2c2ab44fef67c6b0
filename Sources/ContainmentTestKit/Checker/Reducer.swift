/// Shrinks a failing schedule while it still fails: delta debugging over
/// bursts, tasks (lanes) and operations, then animated operations made
/// plain and cancellations removed.
///
/// Each smaller schedule is run with
/// ``ContainerChecker/check(_:interleaving:)`` on seeded interleavings (the one
/// that failed last first), so a failure it keeps reproduces.
struct Reducer<Fixture: CheckableContainer> {
  let checker: ContainerChecker<Fixture>
  let configuration: CheckConfiguration
  private(set) var trials = 0

  init(checker: ContainerChecker<Fixture>, configuration: CheckConfiguration) {
    self.checker = checker
    self.configuration = configuration
  }

  /// A reduced reproduction of `finding`, found running `schedule`; nil if
  /// no seeded interleaving and no run on threads shows a failure again.
  mutating func reduce(_ schedule: ContainerSchedule, finding: CheckFinding) async -> Reproduction? {
    var kind: CheckFindingKind? = finding.kind
    var found = await fails(schedule, kind: kind, preferring: nil, tries: configuration.interleavingsPerTrial * 4)
    if found == nil {
      kind = nil  // Another kind of failure on the same schedule will do.
      found = await fails(schedule, kind: nil, preferring: nil, tries: configuration.interleavingsPerTrial * 4)
    }
    guard var (interleaving, last) = found else {
      return await unreduced(schedule, finding: finding)
    }
    var current = schedule
    var progress = true
    while progress, trials < configuration.reductionTrials {
      progress = false
      for candidate in Self.smaller(than: current) {
        guard trials < configuration.reductionTrials else { break }
        if let hit = await fails(
          candidate, kind: kind, preferring: interleaving, tries: configuration.interleavingsPerTrial)
        {
          (current, interleaving, last) = (candidate, hit.0, hit.1)
          progress = true
          break
        }
      }
    }
    let again = [
      await checker.check(current, interleaving: interleaving),
      await checker.check(current, interleaving: interleaving),
    ]
    let deterministic = again.allSatisfy { $0.contains { $0.kind == last.kind } }
    return Reproduction(
      schedule: current, interleaving: interleaving, finding: last, isDeterministic: deterministic, trials: trials,
      testSource: ReproductionSource.test(
        for: checker, schedule: current, interleaving: interleaving, finding: last, repetitions: 1))
  }

  /// The first finding (of `kind`, if given) that `schedule` shows on one of
  /// `tries` seeded interleavings, `preferring` first.
  private mutating func fails(
    _ schedule: ContainerSchedule, kind: CheckFindingKind?, preferring: Interleaving?, tries: Int
  ) async -> (Interleaving, CheckFinding)? {
    var candidates = (0..<UInt64(tries)).map { Interleaving.seeded(configuration.seed &+ $0 &* 0x9E37_79B9) }
    if let preferring {
      candidates.removeAll { $0 == preferring }
      candidates.insert(preferring, at: 0)
      candidates = Array(candidates.prefix(tries))
    }
    for interleaving in candidates {
      trials += 1
      let findings = await checker.check(schedule, interleaving: interleaving)
      if let finding = findings.first(where: { kind == nil || $0.kind == kind }) {
        return (interleaving, finding)
      }
    }
    return nil
  }

  /// A failure no seeded interleaving shows: the schedule as it failed, and a
  /// test that runs it on threads until it fails (or 100 times).
  private mutating func unreduced(_ schedule: ContainerSchedule, finding: CheckFinding) async -> Reproduction? {
    Reproduction(
      schedule: schedule, interleaving: .threads, finding: finding, isDeterministic: false, trials: trials,
      testSource: ReproductionSource.test(
        for: checker, schedule: schedule, interleaving: .threads, finding: finding, repetitions: 100))
  }

  /// Smaller schedules, the biggest cuts first: without a burst, without a
  /// lane, without an operation, then an operation not animated, then not cancelled.
  static func smaller(than schedule: ContainerSchedule) -> [ContainerSchedule] {
    var candidates: [ContainerSchedule] = []
    let bursts = schedule.bursts
    func with(_ burst: Int, _ lanes: [[ScheduledOperation]]) -> ContainerSchedule {
      var copy = bursts
      if lanes.allSatisfy(\.isEmpty) {
        copy.remove(at: burst)
      } else {
        copy[burst] = ScheduledBurst(lanes.filter { !$0.isEmpty })
      }
      return ContainerSchedule(copy)
    }
    for burst in bursts.indices.reversed() where bursts.count > 1 {
      var copy = bursts
      copy.remove(at: burst)
      candidates.append(ContainerSchedule(copy))
    }
    for (burst, value) in bursts.enumerated() where value.lanes.count > 1 {
      for lane in value.lanes.indices {
        var lanes = value.lanes
        lanes.remove(at: lane)
        candidates.append(with(burst, lanes))
      }
    }
    for (burst, value) in bursts.enumerated() {
      for (lane, operations) in value.lanes.enumerated() where value.operationCount > 1 {
        for position in operations.indices {
          var lanes = value.lanes
          lanes[lane].remove(at: position)
          candidates.append(with(burst, lanes))
        }
      }
    }
    for (burst, value) in bursts.enumerated() {
      for (lane, operations) in value.lanes.enumerated() {
        for (position, operation) in operations.enumerated() {
          if operation.animated {
            var lanes = value.lanes
            lanes[lane][position].animated = false
            candidates.append(with(burst, lanes))
          }
          if operation.cancelledAfter != nil {
            var lanes = value.lanes
            lanes[lane][position].cancelledAfter = nil
            candidates.append(with(burst, lanes))
          }
        }
      }
    }
    return candidates
  }
}
