import Containment

/// The cost of each runtime verb, one operation at a time from one
/// non-isolated task, on a tree shown in a window.
///
/// Every workload checks afterwards that each hook ran exactly as often as the
/// contract says and that the tree's invariants hold.
enum RuntimeOperations {
  static func run(_ sampler: Sampler, options: BenchOptions) async throws -> [Figure] {
    let pairs = options.iterations(20_000)
    var figures: [Figure] = []
    figures.append(
      try await sampler.perOperation(
        "runtime.add-remove", group: .runtime, "add+remove child pair on screen (all hooks, first view load)",
        operations: pairs, note: "10 hooks/pair", addRemovePair))
    figures.append(
      try await sampler.perOperation(
        "runtime.pushpop", group: .runtime, "push+pop pair, not animated (\(NavigationStack.label))",
        operations: pairs, note: "\(NavigationStack.hooksPerPair) hooks/pair"
      ) { count in try await pushPop(count, on: StackStage.navigation) })
    if sampler.selects("runtime.pushpop-depth-\(deepStack)") {
      let deep = try await StackStage.navigation(depth: deepStack)
      figures.append(
        try await sampler.perOperation(
          "runtime.pushpop-depth-\(deepStack)", group: .runtime,
          "push+pop pair on a stack \(deepStack) deep (\(NavigationStack.label))", seconds: budget(options),
          limit: pairs, note: "\(NavigationStack.hooksPerPair) hooks/pair; compare runtime.pushpop"
        ) { count in try await pushPop(count, on: deep) })
    }
    if sampler.selects("runtime.add-remove-siblings-\(siblings)") {
      let wide = try await OnScreenContainer.make()
      try await wide.install(await OnScreenContainer.loadedControllers(siblings, name: "sibling"))
      figures.append(
        try await sampler.perOperation(
          "runtime.add-remove-siblings-\(siblings)", group: .runtime,
          "add+remove child pair beside \(siblings) installed siblings (as runtime.add-remove)",
          seconds: budget(options), limit: pairs, note: "10 hooks/pair; compare runtime.add-remove"
        ) { count in try await addRemovePairs(count, on: wide, siblings: siblings) })
    }
    for depth in [1, deepChain] where sampler.selects("runtime.present-depth-\(depth)") {
      let chain = try await PresentationChain.make(depth: depth)
      figures.append(
        try await sampler.perOperation(
          "runtime.present-depth-\(depth)", group: .runtime,
          "present+dismiss on top of a presentation chain \(depth) deep, not animated", seconds: budget(options),
          limit: pairs, note: "5 hooks/pair; compare each other"
        ) { count in try await chain.presentDismiss(count) })
    }
    figures.append(
      try await sampler.perOperation(
        "runtime.pushpop-threestep", group: .runtime, "push+pop pair, not animated (\(ThreeStepStack.label))",
        operations: pairs, note: "\(ThreeStepStack.hooksPerPair) hooks/pair; stand-in from public verbs"
      ) { count in try await pushPop(count, on: { try await StackStage.standIn(ThreeStepStack.init) }) })
    figures.append(
      try await sampler.perOperation(
        "runtime.stack-via-transition", group: .runtime,
        "push+pop pair, not animated (\(TransitionStack.label))",
        operations: pairs, note: "\(TransitionStack.hooksPerPair) hooks/pair"
      ) { count in try await pushPop(count, on: { try await StackStage.standIn(TransitionStack.init) }) })
    figures.append(
      try await sampler.perOperation(
        "runtime.tab-switch", group: .runtime, "tab switch (\(TabBarTabs.label))", operations: pairs,
        note: "\(HookCounts.tabSwitch) hooks/switch", tabBarSwitch))
    figures.append(
      try await sampler.perOperation(
        "runtime.tab-switch-transition", group: .runtime, "tab switch (\(TransitionTabs.label))", operations: pairs,
        note: "\(HookCounts.transition) hooks/switch; stand-in from public verbs", tabSwitch))
    figures.append(
      try await sampler.perOperation(
        "runtime.transition", group: .runtime, "transition(from:to:duration: .zero), direct", operations: pairs,
        note: "5 hooks", transition))
    figures.append(
      try await sampler.perOperation(
        "runtime.transaction-empty", group: .runtime, "withTransaction with an empty body, on screen",
        operations: pairs, note: "0 hooks; a scope's fixed cost", emptyTransactions))
    figures.append(
      try await sampler.perOperation(
        "runtime.batch10", group: .runtime, "coalesced batch of 10 children (commit; appear, then disappear)",
        operations: options.iterations(5_000), note: "per commit; 30 or 20 hooks", coalescedBatch))
    return figures
  }

  /// Stack depth of `runtime.pushpop-depth-N`: the pair should cost what it
  /// costs on a one-entry stack.
  static let deepStack = 1_000
  /// Chain length of `runtime.present-depth-N`: the pair should cost what
  /// it costs on top of a one-controller chain.
  static let deepChain = 1_000
  /// Installed siblings of `runtime.add-remove-siblings-N`: the pair should
  /// cost what it costs in an empty container.
  static let siblings = 10_000

  /// Seconds per repetition of the deep-stack and wide-container figures
  /// (their operation counts are calibrated, see ``Sampler``).
  static func budget(_ options: BenchOptions) -> Double { options.quick ? 0.05 : 0.3 }

  /// A fresh child each pair (its view not loaded yet): the UIKit three-step
  /// add, then the three-step remove, in a new, empty container.
  static func addRemovePair(_ count: Int) async throws -> Duration {
    try await addRemovePairs(count, on: try await OnScreenContainer.make(), siblings: 0)
  }

  /// `count` add+remove pairs of fresh children on `stage`, whose container
  /// already has `siblings` children; it has them again afterwards.
  static func addRemovePairs(_ count: Int, on stage: OnScreenContainer, siblings: Int) async throws -> Duration {
    let container = stage.container
    let children = (0..<count).map { BenchController("child\($0)") }
    let elapsed = try await Stopwatch.time {
      for child in children {
        try await container.addChild(child)
        try await container.view.addSubview(await child.view)
        await child.didMove(toParent: container)
        await child.willMove(toParent: nil)
        try await child.view.removeFromSuperview()
        try await child.removeFromParent()
      }
    }
    try stage.check(children: siblings)
    try await expectHooks(children, HookCounts.pairFirstLoad * count, "add+remove")
    return elapsed
  }

  /// `count` transaction scopes with an empty body on an on-screen
  /// container: queue, exclusion, the body's call through the gateway.
  static func emptyTransactions(_ count: Int) async throws -> Duration {
    let stage = try await OnScreenContainer.make()
    var ran = 0
    let elapsed = try await Stopwatch.time {
      for _ in 0..<count { ran += try await stage.container.withTransaction { _ in 1 }.value }
    }
    guard ran == count else { throw BenchCheckFailure("\(ran) of \(count) scopes ran their body") }
    try stage.check(children: 0)
    return elapsed
  }

  /// Push and pop the same controller on a new stack holding a root.
  static func pushPop(_ count: Int, on makeStage: () async throws -> StackStage) async throws -> Duration {
    try await pushPop(count, on: try await makeStage())
  }

  /// Push and pop `stage`'s top on its stack, which is as before afterwards.
  static func pushPop(_ count: Int, on stage: StackStage) async throws -> Duration {
    let stack = stage.stack
    let top = stage.top
    let elapsed = try await Stopwatch.time {
      for _ in 0..<count {
        try await stack.push(top)
        try await stack.pop()
      }
    }
    try await stage.check(pairs: count, "push+pop")
    return elapsed
  }

  /// A ``TabBarController`` as a window's root with two tabs whose views are
  /// loaded, switched back and forth with `setSelectedIndex`.
  static func tabBarSwitch(_ count: Int) async throws -> Duration {
    let window = Window()
    let tabBar = TabBarController(name: "tabs")
    try await window.setRootViewController(tabBar)
    let tabs = await OnScreenContainer.loadedControllers(2, name: "tab")
    try await tabBar.setViewControllers(tabs, selectedIndex: 0)
    _ = await tabs.takeHookCounts()
    let driver = TabBarTabs(tabBar: tabBar)
    let elapsed = try await Stopwatch.time {
      for index in 0..<count { try await driver.select((index + 1) % 2) }
    }
    let violations = tabBar.checkInvariants()
    guard violations.isEmpty else { throw BenchCheckFailure("invariants broken: \(violations)") }
    guard tabBar.selectedIndex == count % 2, tabBar.viewControllers.count == 2 else {
      throw BenchCheckFailure("tab bar: selected \(String(describing: tabBar.selectedIndex)), expected \(count % 2)")
    }
    try await expectHooks(tabs, HookCounts.tabSwitch * count, "tab switch")
    withExtendedLifetime(window) {}
    return elapsed
  }

  /// The stand-in: two children of a plain container, switched with
  /// `transition(from:to:duration: .zero)`.
  static func tabSwitch(_ count: Int) async throws -> Duration {
    let stage = try await OnScreenContainer.make()
    let tabs = await OnScreenContainer.loadedControllers(2, name: "tab")
    let driver = try await TransitionTabs(container: stage.container, tabs: tabs)
    _ = await tabs.takeHookCounts()
    let elapsed = try await Stopwatch.time {
      for index in 0..<count { try await driver.select((index + 1) % 2) }
    }
    try stage.check(children: 2)
    try await expectHooks(tabs, HookCounts.transition * count, "tab switch")
    return elapsed
  }

  static func transition(_ count: Int) async throws -> Duration {
    let stage = try await OnScreenContainer.make()
    let container = stage.container
    let pair = await OnScreenContainer.loadedControllers(2)
    for child in pair {
      try await container.addChild(child)
      await child.didMove(toParent: container)
    }
    try await container.view.addSubview(await pair[0].view)
    _ = await pair.takeHookCounts()
    let elapsed = try await Stopwatch.time {
      for index in 0..<count {
        try await container.transition(from: pair[index % 2], to: pair[(index + 1) % 2], duration: .zero)
      }
    }
    try stage.check(children: 2)
    try await expectHooks(pair, HookCounts.transition * count, "transition")
    return elapsed
  }

  /// A manual-forwarding container with 10 installed children commits one
  /// batch that makes all 10 appear, then one that makes them disappear.
  static func coalescedBatch(_ count: Int) async throws -> Duration {
    let stage = try await OnScreenContainer.make(forwardsAppearance: false)
    let container = stage.container
    let children = await OnScreenContainer.loadedControllers(10)
    try await stage.install(children)
    var appear = AppearanceBatch()
    var disappear = AppearanceBatch()
    for child in children {
      appear.appear(child)
      disappear.disappear(child)
    }
    let elapsed = try await Stopwatch.time {
      for index in 0..<count { try await container.commit(index % 2 == 0 ? appear : disappear) }
    }
    let appears = (count + 1) / 2
    let expected = appears * HookCounts.appear * 10 + (count - appears) * HookCounts.disappear * 10
    try await expectHooks(children, expected, "batch")
    return elapsed
  }

  static func expectHooks(_ controllers: [BenchController], _ expected: Int, _ what: String) async throws {
    let delivered = await controllers.takeHookCounts()
    guard delivered == expected else {
      throw BenchCheckFailure("\(what): \(delivered) hooks delivered, expected \(expected)")
    }
  }
}
