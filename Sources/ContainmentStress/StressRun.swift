import Containment

/// A weak reference, for the leak check.
final class WeakReference: @unchecked Sendable {
  weak var object: AnyObject?
  let label: String
  init(_ object: AnyObject, label: String) {
    self.object = object
    self.label = label
  }
}

/// Where the `leak` self-test hides a controller.
let leakedForSelfTest = Locked<[StressController]>([])

/// What one run produced.
struct RunResult: Sendable {
  var history: History
  var findings: [Finding]
  var quiescentChecks: Int
  var elapsed: Duration
  var leaks: [String]
  /// World indices of the leaves (of the custom containers, stacks and tabs).
  var leaves: [Int]
}

/// One complete run: build the world, subscribe, set up, run the workload
/// (or a given list of operations, for the reducer), check, tear down,
/// check for leaks.
enum StressRun {
  /// A list of operations to run instead of the random workload, each started
  /// at its offset, on trees built from `start`.
  struct Trial: Sendable {
    var start: Model
    var operations: [(Duration, Operation)]
    /// The list is prepared and started this many times in a row; rounds
    /// after the first shift each start by up to half a millisecond.
    var rounds = 1
    var jitterSeed: UInt64 = 0
  }

  static func execute(options: Options, trial: Trial? = nil, watchdog: Watchdog?) async -> RunResult {
    let (history, findings, quiescentChecks, elapsed, references, leaves) = await live(options: options, trial: trial, watchdog: watchdog)
    // Everything the run held is released now; nothing may survive.
    var leaks: [String] = []
    for _ in 0..<50 {
      leaks = references.filter { $0.object != nil }.map(\.label)
      if leaks.isEmpty { break }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return RunResult(history: history, findings: findings, quiescentChecks: quiescentChecks, elapsed: elapsed, leaks: leaks, leaves: leaves)
  }

  private static func live(options: Options, trial: Trial?, watchdog: Watchdog?) async
    -> (History, [Finding], Int, Duration, [WeakReference], [Int])
  {
    let environment = ContainmentEnvironment(clock: ContinuousClock())
    let rng = SplitMix64(seed: options.seed)
    let world = World(options: options, environment: environment)
    var subscriberRNG = rng.derived(0x5B)
    let subscribers = Subscribers(world: world, rng: &subscriberRNG)
    let run = Run(world: world, options: options)
    let workload = Workload(run: run, options: options)
    var setupEnd = Duration.zero, workEnd = Duration.zero
    var initial = Model(nodes: [], ids: [])
    var final = Model(nodes: [], ids: [])
    let clock = ContinuousClock()
    var elapsed = Duration.zero
    await withTaskGroup(of: Void.self) { group in
      for subscription in subscribers.all { group.addTask { await subscription.consume() } }
      if let watchdog { group.addTask { await watchdog.watch(run) } }
      do {
        if let trial {
          try await world.setUp(from: trial.start)
          var prepared: Set<Int> = []
          for (_, operation) in trial.operations { await world.prepare(operation, prepared: &prepared) }
        } else {
          var setupRNG = rng.derived(0x5E7)
          try await world.setUp(&setupRNG)
        }
      } catch {
        run.report(Finding(category: .unexpectedSetup, message: "setup failed: \(error)"))
      }
      checkInvariants(run: run, when: "after setup")
      setupEnd = run.now()
      initial = Model.snapshot(of: world)
      run.snapshots.withLock { $0.append((setupEnd, initial)) }
      watchdog?.enter("run")
      if options.fault == .stuckHook, trial == nil {
        world[world.autoLeaves[0]].stuck.withLock { $0 = true }
      }
      if options.fault == .leak, trial == nil { leakedForSelfTest.withLock { $0.append(world[world.autoLeaves[0]]) } }
      let start = clock.now
      if let trial {
        var jitter = SplitMix64(seed: trial.jitterSeed)
        for round in 0..<trial.rounds {
          if round > 0 {
            var prepared: Set<Int> = []
            for (_, operation) in trial.operations { await world.prepare(operation, prepared: &prepared) }
          }
          let roundStart = clock.now
          let shifted = trial.operations.map { offset, operation in
            round == 0 ? (offset, operation) : (offset + .microseconds(jitter.below(500)), operation)
          }
          await withTaskGroup(of: Void.self) { group in
            for (offset, operation) in shifted {
              group.addTask {
                try? await Task.sleep(until: roundStart + offset, clock: clock)
                await perform(operation, run: run)
              }
            }
          }
        }
      } else {
        await workload.execute(seed: rng.derived(0x3C))
      }
      elapsed = clock.now - start
      await world.drainSplits()
      checkInvariants(run: run, when: "end of the workload")
      final = Model.snapshot(of: world)
      workEnd = run.now()
      watchdog?.enter("teardown")
      await world.tearDown()
      watchdog?.enter("checks")
      watchdog?.stop()
    }
    let history = History(
      names: world.controllers.map(\.node.name),
      ids: world.controllers.map(\.node.id),
      indexByID: world.indexByID,
      events: subscribers.recorders.map { $0.events.filter { !$0.kind.isMarker } },
      recorderMarkers: subscribers.recorders.flatMap { recorder in
        recorder.events.filter { $0.kind.isMarker }.compactMap { event -> String? in
          switch event.kind {
          case .subscribed, .terminated: nil
          default: "\(event.kind) on \(world[recorder.controller].node.name)"
          }
        }
      },
      hookLogs: world.controllers.map { $0.hookLog.withLock { $0 } },
      setupEnd: setupEnd,
      workEnd: workEnd,
      initial: initial,
      final: final,
      registered: run.transactions.withLock { $0 },
      unidentified: run.unidentified.withLock { $0 },
      snapshots: run.snapshots.withLock { $0 },
      records: run.records.withLock { $0 },
      watched: run.watched.withLock { $0 }.map { ($0.0, $0.1()) },
      strangers: Set(world.strangers),
      roots: world.roots,
      containerIDs: Set((world.navigations as [any ViewController] + world.tabs + world.splits).map(\.node.id)),
      containerNames: Dictionary(uniqueKeysWithValues: (world.navigations as [any ViewController] + world.tabs + world.splits).map { ($0.node.id, $0.node.name) }),
      others: subscribers.others.map { ($0.role, $0.controller, $0.isTree, $0.events) })
    var references = world.controllers.map { WeakReference($0, label: $0.node.name) }
    for container in world.navigations as [any ViewController] + world.tabs + world.splits {
      references.append(WeakReference(container, label: container.node.name))
      if let view = container.viewIfLoaded { references.append(WeakReference(view, label: "\(container.node.name).view")) }
    }
    references += world.windows.enumerated().map { WeakReference($1, label: "window \($0)") }
    references.append(WeakReference(world.doomedWindow, label: "doomed window"))
    references += world.controllers.compactMap { controller in controller.viewIfLoaded.map { WeakReference($0, label: "\(controller.node.name).view") } }
    return (history, run.findings.withLock { $0 }, workload.quiescentChecks, elapsed, references, world.leaves + world.stackLeaves + world.tabLeaves.flatMap { $0 })
  }
}
