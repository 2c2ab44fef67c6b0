import Containment
import ContainmentLocking
import SoakVerdicts

/// What a run recorded up to a quiescent point (or the end), taken from the
/// run at that point: the epoch's end.
struct Cut: Sendable {
  /// Events stamped before this belong to the epoch (nothing runs at a quiescent point).
  var time: Duration
  /// The end of the workload's part of the epoch (the time for a quiescent point, the workload's end for the last).
  var replayEnd: Duration
  /// The runtime's trees at that point.
  var snapshot: Model
  var recorded: Run.Recorded
  /// Each controller's hooks since the last cut.
  var hookLogs: [[LifecycleEvent.Kind]]
  /// The process's clocks at the cut, for the epoch's throughput.
  var wall: ContinuousClock.Instant
  var cpu: Duration
  /// The process's resident memory at the cut (bytes), where known.
  var resident: Int?
  /// The whole machine's busy time at the cut, where known.
  var machine: (busy: Duration, cores: Int)?
}

/// One epoch's throughput: its operations over the time its workload ran
/// plus the time its checks took (at the next quiescent point), in wall time
/// and in CPU time.
struct EpochRate: Sendable {
  var operations: Int
  var wall: Duration
  var cpu: Duration
  /// When the epoch ended, from the start of the workload.
  var end: Duration = .zero
  /// Resident memory when it ended (bytes), where known.
  var resident: Int?
  /// The share of the machine other processes used while its workload ran, where known.
  var others: Double?

  var perSecond: Double { Double(operations) / max(wall.seconds, 0.001) }
  /// Operations per CPU-second: what a slowdown of the code shows in,
  /// whatever else the machine runs meanwhile.
  var perCPUSecond: Double { Double(operations) / max(cpu.seconds, 0.001) }
}

/// Checks a run epoch by epoch as its quiescent points come: the epoch that
/// ended at the previous point is checked at the next one (its recorders have
/// had a whole epoch to catch up), then dropped. Keeps the checks' state, the
/// counters of the report, and for each kind of finding the first epoch it
/// showed in (for the reducer). Memory stays bounded by two epochs.
actor EpochChecker {
  private let recorders: [Subscription]
  private let others: [Subscription]
  private let progress: Locked<CheckProgress>
  /// Hand free heap pages back at each epoch (`--no-trim`: no).
  private let trim: Bool
  /// Judge a falling throughput as a finding (`--no-throughput-verdict`: no).
  private let judgesThroughput: Bool
  private var template: History
  private var checks: Checks
  private var index = RecorderIndex()
  /// Recorder events received past the last checked epoch's end.
  private var leftovers: [[LifecycleEvent]]
  /// The last cut, not yet checked, and the quiescent point it starts from.
  private var held: (cut: Cut, start: (Duration, Model))?
  private var start: (Duration, Model)
  private var last: (wall: ContinuousClock.Instant, cpu: Duration)
  private var lastMachine: (busy: Duration, cores: Int)?
  /// When the workload started (`begin`).
  private var started = ContinuousClock.now
  private var summary = RunSummary()

  init(
    template: History, recorders: [Subscription], others: [Subscription], progress: Locked<CheckProgress>,
    trim: Bool, judgesThroughput: Bool
  ) {
    self.template = template
    self.trim = trim
    self.judgesThroughput = judgesThroughput
    self.recorders = recorders
    self.others = others
    self.progress = progress
    checks = Checks(history: template)
    checks.subscribers = others.map(SubscriberCheck.init)
    leftovers = recorders.map { _ in [] }
    start = (.zero, template.initial)
    last = (.now, .zero)
    summary.names = template.names
    summary.subscribers = others.count
  }

  /// The first epoch starts at `time` from `snapshot` (after setup).
  func begin(at time: Duration, snapshot: Model) {
    template.initial = snapshot
    template.final = snapshot
    checks = Checks(history: template)
    checks.subscribers = others.map(SubscriberCheck.init)
    start = (time, snapshot)
    last = (.now, ProcessStatus.cpuTime())
    lastMachine = ProcessStatus.machineBusy()
    started = last.wall
  }

  /// A quiescent point: checks the epoch that ended at the previous one.
  func close(_ cut: Cut) {
    let operations = cut.recorded.records.reduce(0) { $0 + ($1.nested ? 0 : 1) }
    summary.epochs.append(
      EpochRate(
        operations: operations, wall: cut.wall - last.wall, cpu: cut.cpu - last.cpu, end: cut.wall - started,
        resident: cut.resident,
        others: ProcessStatus.othersShare(
          from: lastMachine, to: cut.machine, own: cut.cpu - last.cpu, wall: cut.wall - last.wall)))
    checkHeld(rate: summary.epochs.count - 2)
    held = (cut, start)
    start = (cut.time, cut.snapshot)
    last = (.now, ProcessStatus.cpuTime())
    lastMachine = ProcessStatus.machineBusy()
  }

  /// The run is over and every stream has ended: checks what is left.
  func finish(_ cut: Cut) -> RunSummary {
    checkHeld(rate: summary.epochs.count - 1)
    held = nil
    check(cut, from: start, final: true)
    summary.counts = checks.counts
    record([judgesThroughput ? summary.slowdown() : nil, summary.growth()].compactMap { $0 }, evidence: nil)
    return summary
  }

  /// Checks the held epoch, adding the time it takes to its rate (`summary.epochs[rate]`).
  private func checkHeld(rate position: Int) {
    guard let held else { return }
    let (wall, cpu) = (ContinuousClock.now, ProcessStatus.cpuTime())
    check(held.cut, from: held.start, final: false)
    // The checked epoch is dropped: its memory goes back to the system, so
    // that the next epoch's resident memory shows what the run keeps.
    if trim { ProcessStatus.releaseFreeMemory() }
    summary.epochs[position].wall += .now - wall
    summary.epochs[position].cpu += ProcessStatus.cpuTime() - cpu
  }

  private func check(_ cut: Cut, from start: (Duration, Model), final: Bool) {
    var epoch = template
    epoch.events = []
    epoch.events.reserveCapacity(recorders.count)
    for (controller, recorder) in recorders.enumerated() {
      var events = leftovers[controller] + recorder.take()
      leftovers[controller] = []
      if !final, let split = events.firstIndex(where: { !$0.kind.isMarker && $0.timestamp >= cut.time }) {
        leftovers[controller] = Array(events[split...])
        events.removeSubrange(split...)
      }
      for event in events where event.kind.isMarker {
        switch event.kind {
        case .subscribed, .terminated: break
        default: epoch.recorderMarkers.append("\(event.kind) on \(template.names[controller])")
        }
      }
      epoch.events.append(events.filter { !$0.kind.isMarker })
    }
    epoch.hookLogs = cut.hookLogs
    epoch.replayStart = start.0
    epoch.replayEnd = cut.replayEnd
    epoch.initial = start.1
    epoch.final = cut.snapshot
    epoch.registered = cut.recorded.transactions
    epoch.unidentified = cut.recorded.unidentified
    epoch.dismissCalls = cut.recorded.dismissCalls
    epoch.watched = cut.recorded.watched
    epoch.records = cut.recorded.records
    epoch.snapshots = [start]
    checks.check(epoch)
    index.advance(epoch.events)
    checks.checkSubscribers(received: others.map { $0.take() }, before: final ? nil : cut.time, index: index)
    summary.operations.add(cut.recorded.records)
    summary.epochsChecked += 1
    record(cut.recorded.findings + checks.takeFindings(), evidence: epoch.evidence)
  }

  private func record(_ findings: [Finding], evidence: History?) {
    for finding in findings {
      summary.findings.append(finding)
      // The finding the reducer would pick of this kind (`Finding.mostTelling`) is the first one kept.
      let reducible = finding.category != .linearizability || !finding.operations.isEmpty
      if let evidence, reducible, summary.evidence[finding.category] == nil {
        summary.evidence[finding.category] = evidence
      }
    }
    let (epochs, count) = (summary.epochsChecked, summary.findings.total)
    progress.withLock {
      $0.epochsChecked = epochs
      $0.findings = count
    }
  }
}

/// What the progress line shows of the checks.
struct CheckProgress: Sendable {
  var epochsChecked = 0
  var findings = 0
}

/// Everything the report needs of a checked run.
struct RunSummary: Sendable {
  var names: [String] = []
  var operations = OperationStats()
  var findings = FindingLog()
  /// For each kind of finding, the first epoch it showed in (operations and start only).
  var evidence: [Finding.Category: History] = [:]
  /// Throughput of each epoch that ended at a quiescent point.
  var epochs: [EpochRate] = []
  var epochsChecked = 0
  var subscribers = 0
  var counts = Checks.Counts()

  /// Each epoch's throughput (per second of wall time, or per CPU-second)
  /// at its end, for the flatness verdicts.
  func rates(_ rate: (EpochRate) -> Double) -> [Flatness.Sample] {
    epochs.map { Flatness.Sample(time: $0.end.seconds, value: rate($0), others: $0.others ?? 0) }
  }

  /// Each epoch's resident memory at its end.
  var residentSamples: [Flatness.Sample] {
    epochs.compactMap { epoch in epoch.resident.map { Flatness.Sample(time: epoch.end.seconds, value: Double($0)) } }
  }

  /// Median throughput of the first and of the last quarter of the epochs
  /// after the warm-up (the first 10 % of the run), per second of wall time
  /// and per CPU-second, or nil for a run too short to say (`Flatness.throughput`).
  var throughputDrift: (wall: Flatness.Throughput, cpu: Flatness.Throughput)? {
    guard let wall = Flatness.throughput(rates(\.perSecond)), let cpu = Flatness.throughput(rates(\.perCPUSecond))
    else { return nil }
    return (wall, cpu)
  }

  /// Does resident memory grow after the warm-up (`Flatness.memory`)? Nil for a run too short to say.
  var memoryGrowth: Flatness.Memory? { Flatness.memory(residentSamples) }

  /// A finding if the last quarter ran slower than the first by more than the
  /// allowed drop (5 %, or the noise and the machine's drift over a short run), both in wall time and
  /// in CPU time: other work on the machine slows the first only, idle cores
  /// spent spinning change the second only; a cost that grows with the run's
  /// length shows in both.
  func slowdown() -> Finding? {
    guard let drift = throughputDrift, drift.wall.falls, drift.cpu.falls else { return nil }
    func percent(_ fraction: Double) -> String { "\(format(fraction * 100, 1)) %" }
    return Finding(
      category: .slowdown,
      message:
        "throughput fell from \(Int(drift.wall.firstQuarter))/s to \(Int(drift.wall.lastQuarter))/s (\(percent(drift.wall.change)), allowed -\(percent(drift.wall.allowedDrop))), \(Int(drift.cpu.firstQuarter)) to \(Int(drift.cpu.lastQuarter)) per CPU-second (\(percent(drift.cpu.change)), allowed -\(percent(drift.cpu.allowedDrop))); medians of the first and last quarter of the epochs after the warm-up\(drift.cpu.disturbed > 0 ? ", \(drift.cpu.disturbed) epochs left out while other processes were busy" : ""): something grows with the run's length"
    )
  }

  /// A finding if resident memory grows after the warm-up by more than 5 %
  /// an hour (both its slope and its quarters' medians say so, and by more
  /// than the floor of a short run).
  func growth() -> Finding? {
    guard let memory = memoryGrowth, memory.grows else { return nil }
    return Finding(category: .growth, message: memory.describe())
  }
}

extension Flatness.Memory {
  /// The growth in one line, for example "resident memory grew from 280 MB
  /// (second quarter) to 350 MB (last quarter): ...".
  func describe() -> String {
    let perHour = Int(slopePerHour / 1_048_576)
    return
      "resident memory grew from \(megabytes(Int(secondQuarter))) (median of the second quarter) to \(megabytes(Int(lastQuarter))) (last quarter), \(perHour >= 0 ? "+" : "")\(perHour) MB an hour after the warm-up (\(format(relativePerHour * 100, 1)) %; limit 5 % an hour, and \(megabytes(Int(allowed))) between the quarters)"
  }
}

/// Counts of the operations, by kind and outcome, and their latencies.
struct OperationStats: Sendable {
  struct KindCount: Sendable {
    var total = 0, succeeded = 0, failed = 0, cancelled = 0
  }
  var operations = 0
  var nested = 0
  var byKind: [OperationKindName: KindCount] = [:]
  var latency = LatencyHistogram()

  mutating func add(_ records: [OperationRecord]) {
    for record in records {
      guard !record.nested else {
        nested += 1
        continue
      }
      operations += 1
      var count = byKind[record.operation.kind] ?? KindCount()
      count.total += 1
      switch record.outcome {
      case .succeeded: count.succeeded += 1
      case .failed: count.failed += 1
      case .cancelled: count.cancelled += 1
      }
      byKind[record.operation.kind] = count
      latency.add(record.end - record.start)
    }
  }
}

/// Latencies in microseconds, 64 buckets per power of two (within 1.6 %),
/// the maximum exact.
struct LatencyHistogram: Sendable {
  private var counts: [Int] = []
  private(set) var count = 0
  private(set) var maximum = Duration.zero

  private static func bucket(_ microseconds: Int) -> Int {
    guard microseconds >= 128 else { return max(0, microseconds) }
    let shift = (Int.bitWidth - 1 - microseconds.leadingZeroBitCount) - 6
    return shift * 64 + (microseconds >> shift)
  }

  /// The middle of bucket `index`, in microseconds.
  private static func value(_ index: Int) -> Double {
    guard index >= 128 else { return Double(index) }
    let shift = index / 64 - 1
    let low = (index - shift * 64) << shift
    return Double(low) + Double((1 << shift) - 1) / 2
  }

  mutating func add(_ latency: Duration) {
    let index = Self.bucket(latency.microseconds)
    if index >= counts.count { counts += Array(repeating: 0, count: index - counts.count + 1) }
    counts[index] += 1
    count += 1
    maximum = max(maximum, latency)
  }

  /// The latency below which `fraction` of them fall.
  func percentile(_ fraction: Double) -> Duration {
    guard count > 0 else { return .zero }
    let rank = min(count - 1, Int(Double(count) * fraction))
    var seen = 0
    for (index, n) in counts.enumerated() {
      seen += n
      if seen > rank { return min(.microseconds(Self.value(index)), maximum) }
    }
    return maximum
  }
}

/// The findings of a run: every one counted, the first few of each kind kept in full.
struct FindingLog: Sendable {
  static let keptPerCategory = 20
  private(set) var counts: [Finding.Category: Int] = [:]
  private(set) var kept: [Finding] = []

  mutating func append(_ finding: Finding) {
    let count = counts[finding.category, default: 0] + 1
    counts[finding.category] = count
    if count <= Self.keptPerCategory { kept.append(finding) }
  }

  var total: Int { counts.values.reduce(0, +) }
  func count(_ category: Finding.Category) -> Int { counts[category] ?? 0 }
  var violations: Int { counts.filter { $0.key.isViolation }.values.reduce(0, +) }
}
