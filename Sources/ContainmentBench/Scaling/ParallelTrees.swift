import Containment

/// Independent trees driven from tasks of their own (R5):
/// each task pushes and pops on its own window's container.
enum ParallelTrees {
  /// `count` push+pop pairs in all, spread over `trees` tasks, each with a
  /// tree of its own (a stage from `makeStage`, by default a window showing a
  /// ``NavigationController``); wall time from the start of the first task
  /// to the end of the last, per pair in all (aggregate throughput).
  static func pushPop(
    _ count: Int, trees: Int, cpu: CPUTimeSamples? = nil,
    on makeStage: () async throws -> StackStage = StackStage.navigation
  ) async throws -> Duration {
    var stages: [StackStage] = []
    for _ in 0..<trees { stages.append(try await makeStage()) }
    let perTask = count / trees
    let cpuTime = ProcessCPUTime()
    let elapsed = try await timeThrowingTasks(stages) { stage in
      let stack = stage.stack
      let top = stage.top
      for _ in 0..<perTask {
        try await stack.push(top)
        try await stack.pop()
      }
    }
    cpu?.record(seconds: cpuTime.elapsed, operations: perTask * trees)
    for stage in stages { try await stage.check(pairs: perTask, "parallel push+pop") }
    return elapsed * count / (perTask * trees)
  }

  /// Runs `body` once per item, each in a child task, all released at once;
  /// returns the wall time until the last finished.
  static func timeTasks<Item: Sendable>(
    _ items: [Item], _ body: @escaping @Sendable (Item) async -> Void
  ) async -> Duration {
    let start = StartGate(parties: items.count)
    return await withTaskGroup(of: Void.self) { group in
      for item in items {
        group.addTask {
          await start.arriveAndWait()
          await body(item)
        }
      }
      await start.waitUntilAllArrived()
      let watch = Stopwatch()
      start.open()
      await group.waitForAll()
      return watch.elapsed
    }
  }

  /// Like ``timeTasks(_:_:)``, for bodies that throw (the first error ends the figure).

  static func timeThrowingTasks<Item: Sendable>(
    _ items: [Item], _ body: @escaping @Sendable (Item) async throws -> Void
  ) async throws -> Duration {
    let start = StartGate(parties: items.count)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      for item in items {
        group.addTask {
          await start.arriveAndWait()
          try await body(item)
        }
      }
      await start.waitUntilAllArrived()
      let watch = Stopwatch()
      start.open()
      try await group.waitForAll()
      return watch.elapsed
    }
  }
}
