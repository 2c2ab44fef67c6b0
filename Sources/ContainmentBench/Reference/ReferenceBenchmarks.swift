import Containment

/// The reference design driven two ways, beside the runtime
/// driven the same way.
///
/// (a) **as a server calls it**: tasks on the global executor call the verbs
///     one `await` at a time, so every verb hops to the main thread and back;
///     with several tasks, each drives a tree of its own.
/// (b) **as one batch inside its own isolation**: one `MainActor.run` runs
///     every pair synchronously, the way UIKit code on the main thread does.
enum ReferenceBenchmarks {
  /// Server tasks in the "(a)" figures: enough to keep both cores busy.
  static let serverTasks = 8

  static func run(_ sampler: Sampler, options: BenchOptions) async throws -> [Figure] {
    let pairs = options.iterations(20_000)
    let batchPairs = options.iterations(500_000)
    var figures: [Figure] = []
    figures.append(
      try await sampler.perOperation(
        "reference.pushpop-batch", group: .reference, "@MainActor push+pop pair, one batch inside MainActor.run",
        operations: batchPairs, note: "(b)", referenceBatch))
    figures.append(
      try await sampler.perOperation(
        "reference.transition-stack-batch", group: .reference,
        "@MainActor push+pop pair via transition (14 hooks, like a navigation push+pop), one batch inside MainActor.run",
        operations: batchPairs, note: "(b)", referenceTransitionBatch))
    figures.append(
      try await sampler.perOperation(
        "reference.add-remove-batch", group: .reference,
        "@MainActor add+remove pair (first view load), one batch inside MainActor.run", operations: batchPairs / 5,
        note: "(b)", referenceAddRemoveBatch))
    figures.append(
      try await sampler.perOperation(
        "reference.pushpop-server-1", group: .reference, "@MainActor push+pop pair, 1 server task, await per verb",
        operations: pairs, note: "(a)"
      ) { count in try await referenceServer(count, tasks: 1) })
    figures.append(
      try await sampler.perOperation(
        "reference.pushpop-server", group: .reference,
        "@MainActor push+pop pair, \(serverTasks) server tasks (own tree each), await per verb",
        operations: pairs, note: "(a), aggregate"
      ) { count in try await referenceServer(count, tasks: serverTasks) })
    figures.append(
      try await sampler.perOperation(
        "reference.pushpop-server-wrapped", group: .reference,
        "@MainActor push+pop pair, \(serverTasks) server tasks, one MainActor.run per pair", operations: pairs,
        note: "(a'), aggregate"
      ) { count in try await referenceServerWrapped(count, tasks: serverTasks) })
    figures.append(
      try await sampler.perOperation(
        "runtime.pushpop-server", group: .reference,
        "runtime NavigationController push+pop pair, \(serverTasks) server tasks (own tree each)", operations: pairs,
        note: "aggregate, \(NavigationStack.hooksPerPair) hooks/pair"
      ) { count in try await ParallelTrees.pushPop(count, trees: serverTasks) })
    figures.append(
      try await sampler.perOperation(
        "runtime.pushpop-server-threestep", group: .reference,
        "runtime push+pop pair (\(ThreeStepStack.label)), \(serverTasks) server tasks", operations: pairs,
        note: "aggregate, \(ThreeStepStack.hooksPerPair) hooks/pair; stand-in from public verbs"
      ) { count in
        try await ParallelTrees.pushPop(count, trees: serverTasks) { try await StackStage.standIn(ThreeStepStack.init) }
      })
    return figures
  }

  /// (b): `count` push+pop pairs in one main-actor job.
  static func referenceBatch(_ count: Int) async throws -> Duration {
    try await MainActor.run {
      let stage = ReferenceStage()
      let stack = ReferenceThreeStepStack(container: stage.container)
      let watch = Stopwatch()
      for _ in 0..<count {
        stack.push(stage.top)
        stack.pop()
      }
      let elapsed = watch.elapsed
      try expect(stage.takeHookCounts(), HookCounts.pairLoaded * count, "reference push+pop")
      return elapsed
    }
  }

  /// (b): `count` push+pop pairs through `transition`, in one main-actor job:
  /// the reference with the hook set of a navigation push+pop.
  static func referenceTransitionBatch(_ count: Int) async throws -> Duration {
    try await MainActor.run {
      let stage = ReferenceStage()
      let stack = ReferenceTransitionStack(container: stage.container)
      let watch = Stopwatch()
      for _ in 0..<count {
        stack.push(stage.top)
        stack.pop()
      }
      let elapsed = watch.elapsed
      try expect(stage.takeHookCounts(), TransitionStack.hooksPerPair * count, "reference push+pop via transition")
      try expect(stage.container.children.count, 1, "reference stack size")
      return elapsed
    }
  }

  /// (b): `count` three-step add+remove pairs of fresh children.
  static func referenceAddRemoveBatch(_ count: Int) async throws -> Duration {
    try await MainActor.run {
      let stage = ReferenceStage()
      let children = (0..<count).map { ReferenceBenchController(name: "child\($0)") }
      let container = stage.container
      let watch = Stopwatch()
      for child in children {
        container.addChild(child)
        container.view.addSubview(child.view)
        child.didMove(toParent: container)
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
      }
      let elapsed = watch.elapsed
      try expect(
        children.reduce(0) { $0 + $1.takeHookCount() }, HookCounts.pairFirstLoad * count, "reference add+remove")
      return elapsed
    }
  }

  /// (a): `tasks` tasks on the global executor, each pushing and popping on
  /// its own reference tree, one `await` per verb; `count` pairs in all.
  static func referenceServer(_ count: Int, tasks: Int) async throws -> Duration {
    var stages: [ReferenceStage] = []
    for _ in 0..<tasks { stages.append(await ReferenceStage()) }
    let perTask = count / tasks
    let elapsed = await ParallelTrees.timeTasks(stages) { stage in
      let container = stage.container
      let top = stage.top
      for _ in 0..<perTask {
        await container.addChild(top)
        let view = await top.view
        await container.view.addSubview(view)
        await top.didMove(toParent: container)
        await top.willMove(toParent: nil)
        await top.removeFromParent()
      }
    }
    for stage in stages {
      try expect(await stage.takeHookCounts(), HookCounts.pairLoaded * perTask, "reference server push+pop")
    }
    return elapsed * count / (perTask * tasks)
  }

  /// (a'): the same, but each pair is one `MainActor.run`: what a server
  /// does when it knows to batch its calls into the main actor.
  static func referenceServerWrapped(_ count: Int, tasks: Int) async throws -> Duration {
    var stages: [ReferenceStage] = []
    for _ in 0..<tasks { stages.append(await ReferenceStage()) }
    let perTask = count / tasks
    let elapsed = await ParallelTrees.timeTasks(stages) { stage in
      for _ in 0..<perTask {
        await MainActor.run {
          let stack = ReferenceThreeStepStack(container: stage.container)
          stack.push(stage.top)
          stack.pop()
        }
      }
    }
    for stage in stages {
      try expect(await stage.takeHookCounts(), HookCounts.pairLoaded * perTask, "reference server push+pop")
    }
    return elapsed * count / (perTask * tasks)
  }

  static func expect(_ delivered: Int, _ expected: Int, _ what: String) throws {
    guard delivered == expected else {
      throw BenchCheckFailure("\(what): \(delivered) hooks delivered, expected \(expected)")
    }
  }
}
