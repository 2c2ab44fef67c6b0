/// Draws random schedules as a ``CheckConfiguration`` says: bursts of 1 to
/// `tasks` lanes, each of `operationsPerTask` operations picked by weight,
/// animated or cancelled at the configured rates.
struct ScheduleGenerator<Fixture: CheckableContainer> {
  let configuration: CheckConfiguration
  let operations: [ContainerOperation<Fixture>]

  /// One epoch's schedule, with at most `limit` operations.
  func schedule(limit: Int, using generator: inout SplitMix64) -> ContainerSchedule {
    var left = limit
    var bursts: [ScheduledBurst] = []
    for _ in 0..<max(1, configuration.burstsPerEpoch) where left > 0 {
      var lanes: [[ScheduledOperation]] = []
      for _ in 0..<(1 + generator.below(max(1, configuration.tasks))) where left > 0 {
        let count = min(left, generator.within(configuration.operationsPerTask))
        left -= count
        lanes.append((0..<count).map { _ in operation(using: &generator) })
      }
      bursts.append(ScheduledBurst(lanes))
    }
    return ContainerSchedule(bursts)
  }

  private func operation(using generator: inout SplitMix64) -> ScheduledOperation {
    let total = operations.reduce(0) { $0 + $1.weight }
    var pick = generator.below(total)
    var chosen = operations[0]
    for operation in operations {
      if pick < operation.weight {
        chosen = operation
        break
      }
      pick -= operation.weight
    }
    let animated = generator.chance(configuration.animation)
    let cancelled = generator.chance(configuration.cancellation) ? generator.below(8) : nil
    return ScheduledOperation(chosen.name, animated: animated, cancelledAfter: cancelled)
  }
}
