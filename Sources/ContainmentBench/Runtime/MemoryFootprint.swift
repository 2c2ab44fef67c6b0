import Containment

/// Memory per idle controller with its view: the growth of the
/// resident set while 10^5 controllers are created and their views loaded,
/// divided by the count.
///
/// It runs first in the process so that memory freed by other benchmarks cannot
/// be reused and hide the growth.
enum MemoryFootprint {
  static func run(options: BenchOptions) async -> [Figure] {
    if let filter = options.filter, !"memory.rss-per-controller".contains(filter) { return [] }
    let count = options.quick ? 20_000 : 100_000
    let residentBefore = ProcessMemory.residentBytes()
    var controllers: [IdleController] = []
    controllers.reserveCapacity(count)
    for _ in 0..<count {
      let controller = IdleController()
      _ = await controller.view
      controllers.append(controller)
    }
    let residentAfter = ProcessMemory.residentBytes()
    // The array of references is the benchmark's, not the controllers'.
    let arrayBytes = Double(MemoryLayout<IdleController>.stride)
    var figures: [Figure] = []
    if let before = residentBefore, let after = residentAfter {
      figures.append(
        Figure(
          key: "memory.rss-per-controller", group: .memory,
          label:
            "idle controller with its loaded view: RSS growth / \(count)", unit: .bytes,
          samples: [Double(after - before) / Double(count) - arrayBytes], operations: count,
          note:
            "RSS \(NumberFormatting.fixed(Double(before) / 1_048_576, 1)) → \(NumberFormatting.fixed(Double(after) / 1_048_576, 1)) MiB"
        ))
    }
    withExtendedLifetime(controllers) {}
    return figures
  }
}
