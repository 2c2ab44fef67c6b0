import Containment
import ContainmentLocking
import ContainmentTestKit

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
  var summary: RunSummary
  var quiescentChecks: Int
  /// How long the workload ran.
  var elapsed: Duration
  var leaks: [String]
  /// World indices of the leaves (of the custom containers, stacks and tabs).
  var leaves: [Int]
  /// The workload was stopped by Ctrl-C.
  var interrupted = false
  /// With `--fault hung-hook`: hangs planted, hooks timed out, controllers isolated.
  var faults: (planted: Int, timedOut: Int, isolated: Int)?
  /// With `--fault hung-hook` or `slow-children`: the report's lines on the supervised trees.
  var supervision: [String] = []
}

/// One complete run: build the world, subscribe, set up, run the workload
/// (or a given list of operations, for the reducer) while checking each
/// epoch at the quiescent point after it, tear down, check the rest, check
/// for leaks.
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
    var (result, references) = await live(options: options, trial: trial, watchdog: watchdog)
    // Everything the run held is released now; nothing may survive.
    for _ in 0..<50 {
      result.leaks = references.filter { $0.object != nil }.map(\.label)
      let bulk = PlainController.live.withLock { $0 }
      if bulk > 0 { result.leaks.append("\(bulk) bulk controller(s)") }
      if result.leaks.isEmpty { break }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return result
  }

  private static func live(options: Options, trial: Trial?, watchdog: Watchdog?) async -> (RunResult, [WeakReference]) {
    let environment = ContainmentEnvironment(clock: QuickClock(factor: 30))
    let rng = SplitMix64(seed: options.seed)
    let world = World(options: options, environment: environment)
    var subscriberRNG = rng.derived(0x5B)
    let subscribers = Subscribers(world: world, rng: &subscriberRNG)
    let run = Run(world: world, options: options, subscribers: subscribers)
    let workload = Workload(run: run, options: options)
    var workEnd = Duration.zero
    var final = Model(nodes: [], ids: [])
    let clock = ContinuousClock()
    var elapsed = Duration.zero
    let watching = watchdog.map { watchdog in Task { await watchdog.watch(run) } }
    await withTaskGroup(of: Void.self) { group in
      for subscription in subscribers.all { group.addTask { await subscription.consume() } }
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
      await run.checker.begin(at: run.now(), snapshot: Model.snapshot(of: world))
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
      await run.awaitWatched()
      for finding in world.supervisionFindings(afterTeardown: false) { run.report(finding) }
      checkInvariants(run: run, when: "end of the workload")
      await checkSeparatedTrees(run: run)
      final = Model.snapshot(of: world)
      workEnd = run.now()
      watchdog?.enter("teardown")
      await world.tearDown()
      subscribers.tornDown.open()
      for finding in world.supervisionFindings(afterTeardown: true) { run.report(finding) }
      watchdog?.enter("checks")
    }
    // Every stream has ended: the last epoch (with the teardown) is complete.
    let summary = await run.checker.finish(run.cut(at: run.now(), replayEnd: workEnd, snapshot: final))
    watchdog?.stop()
    await watching?.value
    var references = world.controllers.map { WeakReference($0, label: $0.node.name) }
    for container in world.navigations as [any ViewController] + world.tabs + world.splits {
      references.append(WeakReference(container, label: container.node.name))
      if let view = container.viewIfLoaded {
        references.append(WeakReference(view, label: "\(container.node.name).view"))
      }
    }
    references += world.windows.enumerated().map { WeakReference($1, label: "window \($0)") }
    references.append(WeakReference(world.doomedWindow, label: "doomed window"))
    references += world.hop.windows.enumerated().map { WeakReference($1, label: "hop window \($0)") }
    references += world.presentation.windows.enumerated().map { WeakReference($1, label: "presentation window \($0)") }
    references += world.bulk.references
    references += world.supervised?.references ?? []
    references += world.slow?.references ?? []
    references += world.controllers.compactMap { controller in
      controller.viewIfLoaded.map { WeakReference($0, label: "\(controller.node.name).view") }
    }
    let result = RunResult(
      summary: summary, quiescentChecks: workload.quiescentChecks, elapsed: elapsed, leaks: [],
      leaves: world.leaves + world.stackLeaves + world.tabLeaves.flatMap { $0 },
      interrupted: trial == nil && Interruption.requested, faults: world.supervised?.faults,
      supervision: world.supervisionLines)
    return (result, references)
  }
}
