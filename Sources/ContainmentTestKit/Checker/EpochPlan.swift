/// The epochs of a run, drawn in order from its seed: each one's schedule,
/// interleaving and clock steps, until the run's length is reached.
struct EpochPlan<Fixture: CheckableContainer> {
  let checker: ContainerChecker<Fixture>
  let configuration: CheckConfiguration
  private var generator: SplitMix64
  private var index: UInt64 = 0
  /// Operations of the epochs drawn so far.
  private var scheduled = 0

  init(checker: ContainerChecker<Fixture>, configuration: CheckConfiguration) {
    self.checker = checker
    self.configuration = configuration
    generator = SplitMix64(seed: configuration.seed)
  }

  /// The next epoch, or nil once the run is long enough (`elapsed`: its wall time so far).
  mutating func next(elapsed: Duration) -> (ContainerSchedule, EpochRun<Fixture>)? {
    let remaining: Int
    switch configuration.length.kind {
    case .operations(let count): remaining = count - scheduled
    case .duration(let duration): remaining = elapsed < duration ? Int.max : 0
    }
    guard remaining > 0 else { return nil }
    var epochGenerator = generator.derived(index)
    index += 1
    let schedule = ScheduleGenerator(configuration: configuration, operations: checker.operations)
      .schedule(limit: remaining, using: &epochGenerator)
    guard schedule.operationCount > 0 else { return nil }
    scheduled += schedule.operationCount
    let interleaving: Interleaving
    if case .seeded(let seed) = configuration.interleaving.kind {
      interleaving = .seeded(seed ^ epochGenerator.next())
    } else {
      interleaving = .threads
    }
    let epoch = EpochRun(
      checker: checker, clock: configuration.clock, interleaving: interleaving, seed: epochGenerator.next(),
      replayLimit: configuration.replayLimit)
    return (schedule, epoch)
  }
}
