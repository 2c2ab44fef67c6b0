/// Scaling figures: independent trees in parallel (1, 2, 4 and 8 trees on as
/// many tasks: the whole curve on a machine with that many cores), and many
/// tasks contending for one container.
enum ScalingBenchmarks {
  static let treeCounts = [1, 2, 4, 8]
  static let contentionLevels = [1, 8, 64]

  static func run(_ sampler: Sampler, options: BenchOptions) async throws -> [Figure] {
    let pairs = options.iterations(20_000)
    var figures: [Figure] = []
    for trees in treeCounts {
      let cpu = CPUTimeSamples()
      var figure = try await sampler.perOperation(
        "scaling.trees-\(trees)", group: .scaling,
        "NavigationController push+pop pair, \(trees) independent tree\(trees == 1 ? "" : "s") on \(trees) task\(trees == 1 ? "" : "s")",
        operations: pairs, note: "aggregate"
      ) { count in try await ParallelTrees.pushPop(count, trees: trees, cpu: cpu) }
      figure.note += ", \(cpu.note())"
      figures.append(figure)
    }
    for tasks in contentionLevels {
      let cpu = CPUTimeSamples()
      var figure = try await sampler.perOperation(
        "scaling.contention-\(tasks)", group: .scaling,
        "add+remove pair, \(tasks) task\(tasks == 1 ? "" : "s") contending for one container",
        operations: pairs / 64 * 64, note: "aggregate, checked"
      ) { count in try await Contention.pairs(count, tasks: tasks, cpu: cpu) }
      figure.note += ", \(cpu.note())"
      figures.append(figure)
    }
    return figures
  }
}
