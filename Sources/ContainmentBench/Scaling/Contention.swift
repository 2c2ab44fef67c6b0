import Containment

/// Tasks contending for one container: each task owns one
/// child and adds and removes it (three-step add, three-step remove) on the
/// same on-screen container, so every request waits its turn in that
/// container's FIFO queue.
///
/// The total work is fixed; only the number of tasks sharing it changes.
/// Afterwards: no child left behind, every child got exactly the hooks of its
/// pairs, invariants hold ("nothing lost").
enum Contention {
  static func pairs(_ count: Int, tasks: Int, cpu: CPUTimeSamples? = nil) async throws -> Duration {
    let stage = try await OnScreenContainer.make()
    let container = stage.container
    let children = await OnScreenContainer.loadedControllers(tasks)
    let perTask = count / tasks
    let cpuTime = ProcessCPUTime()
    let elapsed = try await ParallelTrees.timeThrowingTasks(children) { child in
      for _ in 0..<perTask {
        try await container.addChild(child)
        try await container.view.addSubview(await child.view)
        await child.didMove(toParent: container)
        await child.willMove(toParent: nil)
        try await child.removeFromParent()
      }
    }
    cpu?.record(seconds: cpuTime.elapsed, operations: perTask * tasks)
    try stage.check(children: 0)
    for child in children {
      let delivered = await child.takeHookCount()
      guard delivered == HookCounts.pairLoaded * perTask else {
        throw BenchCheckFailure(
          "contention: \(child.node.name) got \(delivered) hooks, expected \(HookCounts.pairLoaded * perTask)")
      }
    }
    return elapsed * count / (perTask * tasks)
  }
}
