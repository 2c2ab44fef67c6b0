import Containment
import ContainmentLocking
import ContainmentTestKit
import SoakVerdicts

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--workload server`: the runtime alone, shaped like a server, for as long
/// as the run lasts.
///
/// No recorder, no model, no checks but the memory and the throughput: each of
/// `--tasks` workers builds a tree (a window whose root holds a tab controller
/// of two navigation stacks), shows it, drives it (pushes and pops, tab
/// switches, sheets presented and dismissed, trait changes, a reader of its
/// tree's events now and then, a wait for idle), then lets it go, and starts
/// over. A tree is shown and ended in one of three ways: run as a service
/// (`Window.run` until a `GracefulShutdown`), shown and torn down, or shown and
/// dropped without a teardown. Half the workers' trees are supervised (a hook
/// deadline, the isolate policy). Every `--quiescent-every` seconds it samples
/// the resident memory, the live controllers and the throughput; at the end it
/// says whether the run stayed flat after its warm-up (`Flatness`), and every
/// controller must be released.
enum ServerWorkload {
  /// One sample, taken every period.
  struct Sample: Sendable {
    var time: Duration
    var resident: Int?
    var requests: Int
    var cpu: Duration
    /// Controllers alive (built and not yet released).
    var live: Int
    var trees: Int
    /// The whole machine's busy time, where known.
    var machine: (busy: Duration, cores: Int)?
  }

  /// What the run did.
  struct Outcome: Sendable {
    var samples: [Sample] = []
    var requests = 0
    var refused = 0
    /// Refusals by request and error ("pop: cannotPopRoot").
    var refusals: [String: Int] = [:]
    var trees = 0
    var services = 0
    var torndown = 0
    var released = 0
    var elapsed = Duration.zero
    var leaked = 0
  }

  private struct Counters {
    var requests = 0
    var refused = 0
    var refusals: [String: Int] = [:]
    var trees = 0
    var services = 0
    var torndown = 0
    var released = 0
  }

  private enum Ending {
    case service, tearDown, drop
  }

  static func execute(options: Options) async -> Outcome {
    let plain = ContainmentEnvironment(clock: QuickClock(factor: 30))
    // The quick clock's waits are 30 times shorter: the deadline is
    // `--hook-deadline` of real time (100 ms by default).
    let supervised = ContainmentEnvironment(
      clock: QuickClock(factor: 30), hookDeadline: options.hookDeadline.map { $0 * 30 }, faultPolicy: .isolate)
    let counters = Locked(Counters())
    let stop = Locked(false)
    let watch = Watch(workers: options.tasks)
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .seconds(options.seconds)
    var outcome = Outcome()
    outcome.samples = await withTaskGroup(of: [Sample].self) { group in
      for worker in 0..<options.tasks {
        var rng = SplitMix64(seed: options.seed).derived(UInt64(worker + 1))
        let environment = worker % 2 == 0 ? plain : supervised
        group.addTask {
          while !stop.withLock({ $0 }) {
            await serveOneTree(&rng, environment: environment, counters: counters, worker: worker, watch: watch)
          }
          watch.finished(worker)
          return []
        }
      }
      group.addTask {
        var samples: [Sample] = []
        let period = Duration.seconds(options.quiescentEvery > 0 ? options.quiescentEvery : 2)
        var next = start + period
        while clock.now < deadline, !Interruption.requested {
          try? await Task.sleep(until: min(next, deadline), clock: clock)
          guard clock.now >= next else { continue }
          next += period
          if options.trim { ProcessStatus.releaseFreeMemory() }
          let counted = counters.withLock { $0 }
          let sample = Sample(
            time: clock.now - start, resident: ProcessStatus.memory()?.resident, requests: counted.requests,
            cpu: ProcessStatus.cpuTime(), live: PlainController.live.withLock { $0 }, trees: counted.trees,
            machine: ProcessStatus.machineBusy())
          samples.append(sample)
          watch.check(stall: options.stallSeconds, requests: counted.requests)
          if !options.quiet { Terminal.error(line(sample, previous: samples.dropLast().last) + "\n") }
        }
        stop.withLock { $0 = true }
        // The workers finish the trees they are serving; one that stops
        // making progress is a deadlock.
        while !watch.allFinished {
          try? await Task.sleep(for: .milliseconds(100))
          watch.check(stall: options.stallSeconds, requests: counters.withLock { $0.requests })
        }
        return samples
      }
      var all: [Sample] = []
      for await samples in group { all += samples }
      return all
    }
    outcome.elapsed = clock.now - start
    let counted = counters.withLock { $0 }
    outcome.requests = counted.requests
    outcome.refused = counted.refused
    outcome.refusals = counted.refusals
    outcome.trees = counted.trees
    outcome.services = counted.services
    outcome.torndown = counted.torndown
    outcome.released = counted.released
    // Every tree was dropped: every controller must go.
    for _ in 0..<100 {
      outcome.leaked = PlainController.live.withLock { $0 }
      if outcome.leaked == 0 { break }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return outcome
  }

  /// One progress line, for example
  /// "server 12.0s  trees 1234  requests 45678  3800/s  live controllers 64  RSS 40 MB".
  static func line(_ sample: Sample, previous: Sample?) -> String {
    let since = previous ?? Sample(time: .zero, resident: nil, requests: 0, cpu: .zero, live: 0, trees: 0)
    let others = ProcessStatus.othersShare(
      from: since.machine, to: sample.machine, own: sample.cpu - since.cpu, wall: sample.time - since.time)
    let rate = Double(sample.requests - since.requests) / max((sample.time - since.time).seconds, 0.001)
    return
      "server \(format(sample.time.seconds, 1))s  trees \(sample.trees)  requests \(sample.requests)  \(Int(rate))/s  live controllers \(sample.live)  RSS \(sample.resident.map(megabytes) ?? "unknown")\(others.map { "  others \(Int(($0 * 100).rounded())) %" } ?? "")"
  }

  /// One tree's life: built, shown, driven, torn down (or dropped).
  private static func serveOneTree(
    _ rng: inout SplitMix64, environment: ContainmentEnvironment, counters: Locked<Counters>, worker: Int,
    watch: Watch
  ) async {
    func make(_ name: String) -> PlainController { PlainController(name: name, environment: environment) }
    let window = Window(environment: environment)
    let root = make("Root")
    let tabs = TabBarController(name: "Tabs")
    tabs.node.environment = environment
    let stacks = (0..<2).map { index in
      let navigation = NavigationController(name: "Nav\(index)", transitionDuration: .milliseconds(1))
      navigation.node.environment = environment
      return navigation
    }
    var requests = 0
    var refused = 0
    var refusals: [String: Int] = [:]
    func request(_ label: String, _ body: () async throws -> Void) async {
      requests += 1
      watch.begin(worker, label)
      do {
        try await body()
      } catch {
        refused += 1
        refusals["\(label): \(Self.kind(of: error))", default: 0] += 1
      }
      watch.beat()
    }
    await request("setViewControllers") { _ = try await stacks[0].setViewControllers([make("Home")], animated: false) }
    await request("setViewControllers") {
      _ = try await stacks[1].setViewControllers([make("Settings")], animated: false)
    }
    await request("tabs.setViewControllers") { try await tabs.setViewControllers(stacks, selectedIndex: 0) }
    await request("addChild") {
      try await root.addChild(tabs)
      try await root.view.addSubview(await tabs.view)
      await tabs.didMove(toParent: root)
    }
    // A reader of the tree's events, now and then (a server's log, say).
    let reader: Task<Void, Never>? =
      rng.chance(0.3)
      ? Task { [events = root.treeEvents(policy: .keepNewest(256))] in
        for await event in events where event.kind == .terminated { _ = event }
      } : nil
    let ending: Ending = rng.chance(0.3) ? .service : rng.chance(0.7) ? .tearDown : .drop
    let shutdown = GracefulShutdown()
    var service: Task<Void, any Error>?
    if ending == .service {
      requests += 1
      service = Task { try await window.run(root, until: shutdown) }
      // Shown, or faulted on the way (a hook past its deadline on a busy
      // machine): a faulted root never appears.
      await request("waitUntil(.appeared)") {
        await withTaskGroup(of: Void.self) { group in
          group.addTask { try? await root.waitUntil(.appeared) }
          group.addTask { try? await root.waitUntil(.faulted) }
          await group.next()
          group.cancelAll()
        }
      }
    } else {
      await request("setRootViewController") { try await window.setRootViewController(root) }
    }
    let steps = 10 + rng.below(30)
    for _ in 0..<steps {
      let stack = stacks[rng.below(2)]
      let animated = rng.chance(0.2)
      switch rng.below(10) {
      case 0, 1, 2:
        await request("push") { _ = try await stack.push(make("Screen"), animated: animated) }
      case 3, 4:
        await request("pop") { _ = try await stack.pop(animated: animated) }
      case 5:
        await request("popToRoot") { _ = try await stack.popToRoot(animated: animated) }
      case 6:
        await request("select") { _ = try await tabs.select(rng.below(2)) }
      case 7:
        if let top = stack.topViewController {
          await request("present") { _ = try await top.present(make("Sheet"), style: .pageSheet, animated: animated) }
          await request("dismiss") { _ = try await top.dismiss(animated: animated) }
        }
      case 8:
        let compact = rng.chance(0.5)
        await request("setTraitCollection") {
          try await window.setTraitCollection(TraitCollection(horizontalSizeClass: compact ? .compact : .regular))
        }
      default:
        await request("waitUntil(.idle)") { try await root.waitUntil(.idle) }
      }
    }
    switch ending {
    case .service:
      shutdown.request()
      watch.begin(worker, "service shutdown")
      if (try? await service?.value) == nil {
        refused += 1
        refusals["service: threw", default: 0] += 1
      }
    case .tearDown:
      await request("tearDown") { try await window.tearDown() }
    case .drop:
      reader?.cancel()
    }
    // Dropped here: the window, its tree, the reader.
    watch.begin(worker, "event reader's end")
    await reader?.value
    watch.begin(worker, "")
    counters.withLock {
      $0.requests += requests
      $0.refused += refused
      $0.refusals.merge(refusals, uniquingKeysWith: +)
      $0.trees += 1
      switch ending {
      case .service: $0.services += 1
      case .tearDown: $0.torndown += 1
      case .drop: $0.released += 1
      }
    }
  }

  /// An error's description without the controllers' numbers ("#52686 is
  /// not in a window" → "# is not in a window"), to count refusals by kind.
  static func kind(of error: any Error) -> String {
    var kind = ""
    var inNumber = false
    for character in String(describing: error) {
      if inNumber, character.isNumber { continue }
      inNumber = character == "#"
      kind.append(character)
    }
    return kind
  }

  /// What each worker is waiting for, and a heartbeat: a run that stops
  /// making progress for `--stall` seconds is a deadlock, reported with
  /// what every worker waits for.
  final class Watch: Sendable {
    private struct State {
      var steps: [String]
      var finished: Set<Int> = []
      var beats = 0
      var lastBeats = -1
      var lastChange = ContinuousClock.now
    }
    private let state: Locked<State>

    init(workers: Int) { state = Locked(State(steps: Array(repeating: "", count: workers))) }

    func begin(_ worker: Int, _ step: String) { state.withLock { $0.steps[worker] = step } }
    func beat() { state.withLock { $0.beats += 1 } }
    func finished(_ worker: Int) { state.withLock { _ = $0.finished.insert(worker) } }
    var allFinished: Bool { state.withLock { $0.finished.count == $0.steps.count } }

    /// Ends the process as a deadlock if nothing progressed for `stall` seconds.
    func check(stall: Double, requests: Int) {
      let stuck = state.withLock { state -> [String]? in
        let now = ContinuousClock.now
        if state.beats != state.lastBeats {
          state.lastBeats = state.beats
          state.lastChange = now
          return nil
        }
        guard now - state.lastChange >= .seconds(stall) else { return nil }
        return state.steps.enumerated().filter { !state.finished.contains($0.offset) }.map {
          "  worker \($0.offset): \($0.element.isEmpty ? "between requests" : $0.element)"
        }
      }
      guard let stuck else { return }
      print(
        (["", "DEADLOCK: no request finished for \(format(stall, 0)) s; the workers wait in:"] + stuck).joined(
          separator: "\n"))
      print("stress: \(requests) operations, 0 violations, 1 deadlocks, 0 leaks")
      Terminal.flush()
      exit(1)
    }
  }

  /// The report of a server run, its verdict, and its findings.
  struct Report {
    var options: Options
    var outcome: Outcome

    /// The floor of growth between the quarters: the server workload's
    /// resident memory is a few tens of megabytes and moves by a megabyte or
    /// two from sample to sample (the checked workload's follows the size of
    /// its epochs, hence its larger floor).
    static let growthFloor = 8.0 * 1_048_576

    var memory: Flatness.Memory? {
      var limits = Flatness.Limits()
      limits.growthFloor = Self.growthFloor
      return Flatness.memory(
        outcome.samples.compactMap { sample in
          sample.resident.map { Flatness.Sample(time: sample.time.seconds, value: Double($0)) }
        }, limits: limits)
    }

    /// Requests per second and per CPU-second between samples.
    var throughput: (wall: Flatness.Throughput, cpu: Flatness.Throughput)? {
      var wall: [Flatness.Sample] = []
      var cpu: [Flatness.Sample] = []
      for (previous, sample) in zip(outcome.samples, outcome.samples.dropFirst()) {
        let done = Double(sample.requests - previous.requests)
        let others =
          ProcessStatus.othersShare(
            from: previous.machine, to: sample.machine, own: sample.cpu - previous.cpu,
            wall: sample.time - previous.time) ?? 0
        wall.append(
          .init(
            time: sample.time.seconds, value: done / max((sample.time - previous.time).seconds, 0.001), others: others)
        )
        cpu.append(
          .init(
            time: sample.time.seconds, value: done / max((sample.cpu - previous.cpu).seconds, 0.001), others: others))
      }
      guard let wallVerdict = Flatness.throughput(wall), let cpuVerdict = Flatness.throughput(cpu) else { return nil }
      return (wallVerdict, cpuVerdict)
    }

    var findings: [Finding] {
      var findings: [Finding] = []
      if let memory, memory.grows { findings.append(Finding(category: .growth, message: memory.describe())) }
      if let drift = throughput, drift.wall.falls, drift.cpu.falls {
        findings.append(
          Finding(
            category: .slowdown,
            message:
              "requests per second fell from \(Int(drift.wall.firstQuarter)) to \(Int(drift.wall.lastQuarter)) (\(Int(drift.cpu.firstQuarter)) to \(Int(drift.cpu.lastQuarter)) per CPU-second), beyond the allowed -\(format(drift.cpu.allowedDrop * 100, 1)) %"
          ))
      }
      return findings
    }

    func text() -> String {
      let seconds = outcome.elapsed.seconds
      var lines = [
        "containment-stress --workload server  seed=0x\(String(options.seed, radix: 16))  tasks=\(options.tasks)",
        "trees        \(outcome.trees) built, shown, driven and let go (\(outcome.services) run as services until shut down, \(outcome.torndown) torn down, \(outcome.released) dropped without a teardown)",
        "requests     \(outcome.requests) in \(format(seconds, 1))s = \(Int(Double(outcome.requests) / max(seconds, 0.001)))/s, \(outcome.refused) refused",
      ]
      let refusals = outcome.refusals.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
      if !refusals.isEmpty {
        lines.append(
          "refused      " + refusals.prefix(6).map { "\($0.key) (\($0.value))" }.joined(separator: "; ")
            + (refusals.count > 6 ? "; ..." : ""))
      }
      let resident = outcome.samples.compactMap { sample in
        sample.resident.map { Flatness.Sample(time: sample.time.seconds, value: Double($0)) }
      }
      if let first = resident.first, let last = resident.last {
        let quarters = Flatness.quarterMedians(resident).map { $0.map { megabytes(Int($0)) } ?? "-" }
        lines.append(
          "RSS          first sample \(megabytes(Int(first.value))), quarter medians \(quarters.joined(separator: " / ")), last \(megabytes(Int(last.value))); \(outcome.samples.count) samples"
        )
      }
      if let memory {
        let perHour = Int(memory.slopePerHour / 1_048_576)
        lines.append(
          "memory       after the warm-up \(perHour >= 0 ? "+" : "")\(perHour) MB an hour (\(format(memory.relativePerHour * 100, 1)) %), second → last quarter \(megabytes(Int(memory.secondQuarter))) → \(megabytes(Int(memory.lastQuarter))) (allowed +\(megabytes(Int(memory.allowed)))): \(memory.grows ? "grows" : "flat")"
        )
      } else {
        lines.append("memory       too few samples for a verdict")
      }
      if let drift = throughput {
        let change = Int((drift.cpu.change * 100).rounded())
        lines.append(
          "throughput   quarter medians \(Int(drift.wall.firstQuarter)) → \(Int(drift.wall.lastQuarter))/s, per CPU-second \(Int(drift.cpu.firstQuarter)) → \(Int(drift.cpu.lastQuarter)) (\(change >= 0 ? "+" : "")\(change) %, allowed -\(format(drift.cpu.allowedDrop * 100, 1)) %\(drift.cpu.disturbed > 0 ? "; \(drift.cpu.disturbed) samples left out while other processes used over a quarter of the machine" : "")): \(drift.wall.falls && drift.cpu.falls ? "falls" : "steady")"
        )
      } else {
        lines.append("throughput   no verdict (too few samples, or other processes busy through most of the run)")
      }
      let live = outcome.samples.map(\.live)
      if let most = live.max() {
        lines.append("controllers  at most \(most) alive at a sample, \(outcome.leaked) alive after the run")
      }
      let findings = self.findings
      let verdict =
        memory == nil ? "no verdict (run longer)" : findings.isEmpty && outcome.leaked == 0 ? "flat" : "NOT flat"
      lines.append("verdict      \(verdict)")
      for finding in findings { lines.append("  \(finding.category.rawValue): \(finding.message)") }
      return lines.joined(separator: "\n")
    }

    var summaryLine: String {
      "stress: \(outcome.requests) operations, \(findings.count) violations, 0 deadlocks, \(outcome.leaked) leaks"
    }
  }
}
