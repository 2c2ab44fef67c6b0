import Containment
import SoakVerdicts

/// The numbers and findings of a run, as text or JSON.
struct Report {
  typealias KindCount = OperationStats.KindCount

  var options: Options
  var operations = 0
  var nested = 0
  var seconds = 0.0
  var byKind: [(OperationKindName, KindCount)] = []
  var p50 = Duration.zero
  var p99 = Duration.zero
  var maxLatency = Duration.zero
  var summary: RunSummary
  var quiescentChecks = 0
  /// Every finding counted; the first few of each kind kept in full.
  var findings: FindingLog
  var leaks: [String] = []
  var reduction: (operations: [Operation], reproduced: Bool, trials: Int)?
  var names: [String] = []
  var reducedFinding: Finding?
  var interrupted = false
  /// Peak resident memory of the process (before any reduction), if known.
  var peakMemory: Int?
  /// With `--fault hung-hook`: hangs planted, hooks timed out, controllers isolated.
  var faults: (planted: Int, timedOut: Int, isolated: Int)?
  /// With `--fault hung-hook` or `slow-children`: lines on the supervised trees.
  var supervision: [String] = []
  /// Wall time from the start of the process to the end of the checks.
  var wallTime: Duration

  var violations: Int { findings.violations }
  var deadlocks: Int { findings.count(.deadlock) }

  init(options: Options, result: RunResult, wallTime: Duration) {
    self.options = options
    summary = result.summary
    faults = result.faults
    supervision = result.supervision
    let stats = summary.operations
    operations = stats.operations
    nested = stats.nested
    seconds = result.elapsed.seconds
    byKind = OperationKindName.allCases.compactMap { kind in stats.byKind[kind].map { (kind, $0) } }
    p50 = stats.latency.percentile(0.5)
    p99 = stats.latency.percentile(0.99)
    maxLatency = stats.latency.maximum
    quiescentChecks = result.quiescentChecks
    findings = summary.findings
    for leak in result.leaks {
      findings.append(Finding(category: .leak, message: "\(leak) is still alive after the run released it"))
    }
    leaks = result.leaks
    names = summary.names
    interrupted = result.interrupted
    peakMemory = ProcessStatus.memory()?.peak
    self.wallTime = wallTime
  }

  var summaryLine: String {
    "stress: \(operations) operations, \(violations) violations, \(deadlocks) deadlocks, \(leaks.count) leaks"
  }

  /// The soak line: epochs, throughput at the start and at the end, peak memory.
  private var soak: String {
    var parts = ["\(summary.epochsChecked) epochs checked in \(format(wallTime.seconds, 1))s of wall time"]
    if let first = summary.epochs.first, let last = summary.epochs.last, summary.epochs.count > 1 {
      parts.append("throughput first epoch \(Int(first.perSecond))/s, last \(Int(last.perSecond))/s")
    }
    if let drift = summary.throughputDrift {
      func change(_ verdict: Flatness.Throughput) -> String {
        let percent = Int((verdict.change * 100).rounded())
        return "\(Int(verdict.firstQuarter)) → \(Int(verdict.lastQuarter)) (\(percent >= 0 ? "+" : "")\(percent) %)"
      }
      let left =
        drift.cpu.disturbed > 0
        ? ", \(drift.cpu.disturbed) epochs left out while other processes used over a quarter of the machine" : ""
      parts.append(
        "median of the first and last quarter after the warm-up \(change(drift.wall))/s, per CPU-second \(change(drift.cpu)) (allowed -\(Int((drift.cpu.allowedDrop * 100).rounded())) %\(left))"
      )
    } else if summary.epochs.count >= 2 * Flatness.Limits().minimumSamples {
      let busy = summary.epochs.filter { ($0.others ?? 0) > Flatness.Limits().maximumOthers }.count
      parts.append("throughput: no verdict, other processes used over a quarter of the machine during \(busy) epochs")
    }
    if let rss = residentLine { parts.append(rss) }
    parts.append("peak RSS \(peakMemory.map(megabytes) ?? "unknown")")
    return parts.joined(separator: "; ")
  }

  /// RSS at the first epoch, the medians of the run's quarters, the last
  /// epoch, and the growth after the warm-up.
  var residentLine: String? {
    let samples = summary.residentSamples
    guard let first = samples.first, let last = samples.last else { return nil }
    let quarters = Flatness.quarterMedians(samples).map { $0.map { megabytes(Int($0)) } ?? "-" }
    var line =
      "RSS first epoch \(megabytes(Int(first.value))), quarter medians \(quarters.joined(separator: " / ")), last \(megabytes(Int(last.value)))"
    if let memory = summary.memoryGrowth {
      let perHour = Int(memory.slopePerHour / 1_048_576)
      line +=
        " (after the warm-up \(perHour >= 0 ? "+" : "")\(perHour) MB an hour, \(format(memory.relativePerHour * 100, 1)) %: \(memory.grows ? "grows" : "flat"))"
    }
    return line
  }

  func text() -> String {
    var lines: [String] = []
    let fault = options.fault.map { "  fault=\($0.rawValue)" } ?? ""
    lines.append(
      "containment-stress  seed=\(options.seedText)  tasks=\(options.tasks)  trees=\(options.trees)  controllers=\(names.count)\(fault)"
    )
    if interrupted {
      lines.append("interrupted  by Ctrl-C after \(format(seconds, 1))s: what was recorded until then is checked")
    }
    lines.append(
      "operations   \(operations) in \(format(seconds, 1))s = \(Int(Double(operations) / max(seconds, 0.001)))/s, plus \(nested) requested from inside hooks"
    )
    lines.append("latency      p50 \(p50.micros)  p99 \(p99.micros)  max \(maxLatency.micros)")
    lines.append("by kind      kind               total  succeeded  refused  cancelled")
    for (kind, count) in byKind {
      lines.append(
        "             \(pad(kind.rawValue, 17)) \(pad("\(count.total)", 6, left: true)) \(pad("\(count.succeeded)", 10, left: true)) \(pad("\(count.failed)", 8, left: true)) \(pad("\(count.cancelled)", 10, left: true))"
      )
    }
    lines.append(
      "events       \(summary.counts.recordedEvents) recorded; \(summary.subscribers) other subscribers got \(summary.counts.subscriberEvents), lost \(summary.counts.lostEvents) in \(summary.counts.lostMarkers) exact markers, \(summary.counts.laggedDisconnects) disconnected for lag"
    )
    let containers = summary.counts.replayedContainers
    lines.append(
      "checks       \(quiescentChecks) quiescent invariant checks; \(summary.counts.replayedTransactions) transactions replayed on the model (\(containers.splitLayouts) split layouts, \(containers.traitChanges) trait changes, \(containers.interactivePops) interactive pops, \(containers.eventless) eventless reorders placed by time); hook grammar, hook logs, subscribers, expected errors, leaks"
    )
    lines.append("soak         \(soak)")
    if let faults {
      lines.append("faults       \(faults.timedOut) hooks timed out, \(faults.isolated) controllers isolated")
    }
    lines += supervision
    if findings.total == 0 {
      lines.append("findings     none")
    } else {
      lines.append("findings     \(findings.total)")
      for category in Finding.Category.allCases {
        let count = findings.count(category)
        guard count > 0 else { continue }
        let some = findings.kept.filter { $0.category == category }
        lines.append("  \(category.rawValue): \(count)")
        for finding in some.prefix(5) { lines.append("    - \(finding.message)") }
        if count > 5 { lines.append("    ... and \(count - 5) more") }
      }
      lines.append(
        "seed         \(options.seedText) (re-run: containment-stress --seed \(options.seedText)\(options.fault.map { " --fault \($0.rawValue)" } ?? ""))"
      )
      if let reduction {
        if reduction.reproduced {
          lines.append(
            "reduced to   \(reduction.operations.count) operation(s) that, started together on a fresh world, again show the same kind of finding\(reducedFinding.map { " (\($0.category.rawValue))" } ?? "") (\(reduction.trials) trials):"
          )
          for operation in reduction.operations { lines.append("    \(describe(operation))") }
        } else {
          lines.append(
            "reduction    the failure did not reproduce from the candidate operations in \(reduction.trials) trials")
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  func describe(_ operation: Operation) -> String { operation.describe(names: names) }

  func json() -> String {
    var fields: [String] = []
    fields.append("\"seed\": \(json(options.seedText))")
    fields.append("\"fault\": \(options.fault.map { json($0.rawValue) } ?? "null")")
    fields.append("\"tasks\": \(options.tasks), \"trees\": \(options.trees), \"controllers\": \(names.count)")
    fields.append("\"operations\": \(operations), \"nestedOperations\": \(nested), \"seconds\": \(format(seconds, 3))")
    fields.append("\"operationsPerSecond\": \(Int(Double(operations) / max(seconds, 0.001)))")
    fields.append(
      "\"latencyMicroseconds\": {\"p50\": \(p50.microseconds), \"p99\": \(p99.microseconds), \"max\": \(maxLatency.microseconds)}"
    )
    let kinds = byKind.map { kind, count in
      "\(json(kind.rawValue)): {\"total\": \(count.total), \"succeeded\": \(count.succeeded), \"refused\": \(count.failed), \"cancelled\": \(count.cancelled)}"
    }
    fields.append("\"byKind\": {\(kinds.joined(separator: ", "))}")
    fields.append(
      "\"events\": \(summary.counts.recordedEvents), \"subscribers\": \(summary.subscribers), \"subscriberEvents\": \(summary.counts.subscriberEvents)"
    )
    fields.append(
      "\"lostEvents\": \(summary.counts.lostEvents), \"lostMarkers\": \(summary.counts.lostMarkers), \"laggedDisconnects\": \(summary.counts.laggedDisconnects)"
    )
    let containers = summary.counts.replayedContainers
    fields.append(
      "\"quiescentChecks\": \(quiescentChecks), \"transactionsReplayed\": \(summary.counts.replayedTransactions), \"splitLayoutsReplayed\": \(containers.splitLayouts), \"traitChangesReplayed\": \(containers.traitChanges), \"interactivePopsReplayed\": \(containers.interactivePops), \"eventlessReorders\": \(containers.eventless)"
    )
    fields.append(
      "\"epochsChecked\": \(summary.epochsChecked), \"wallSeconds\": \(format(wallTime.seconds, 3)), \"peakResidentBytes\": \(peakMemory.map(String.init) ?? "null"), \"interrupted\": \(interrupted)"
    )
    // Each epoch: operations, wall seconds, CPU seconds, its end (seconds from the start), resident bytes,
    // the share of the machine other processes used.
    let rates = summary.epochs.map {
      "[\($0.operations), \(format($0.wall.seconds, 3)), \(format($0.cpu.seconds, 3)), \(format($0.end.seconds, 3)), \($0.resident.map(String.init) ?? "null"), \($0.others.map { format($0, 3) } ?? "null")]"
    }
    fields.append("\"epochs\": [\(rates.joined(separator: ", "))]")
    if !supervision.isEmpty {
      fields.append("\"supervision\": [\(supervision.map { json($0) }.joined(separator: ", "))]")
    }
    fields.append("\"violations\": \(violations), \"deadlocks\": \(deadlocks), \"leaks\": \(leaks.count)")
    let counts = Finding.Category.allCases.compactMap { category in
      findings.counts[category].map { "\(json(category.rawValue)): \($0)" }
    }
    fields.append("\"findingCounts\": {\(counts.joined(separator: ", "))}")
    let items = findings.kept.map { "{\"category\": \(json($0.category.rawValue)), \"message\": \(json($0.message))}" }
    fields.append("\"findings\": [\(items.joined(separator: ", "))]")
    if let reduction {
      fields.append(
        "\"reduced\": {\"reproduced\": \(reduction.reproduced), \"trials\": \(reduction.trials), \"operations\": [\(reduction.operations.map { json(describe($0)) }.joined(separator: ", "))]}"
      )
    }
    return "{\n  " + fields.joined(separator: ",\n  ") + "\n}"
  }

  private func json(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += "\\u00\(scalar.value < 16 ? "0" : "")\(String(scalar.value, radix: 16))"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
  var microseconds: Int { Int(seconds * 1e6) }
  var micros: String {
    let us = seconds * 1e6
    return us >= 1000 ? "\(format(us / 1000, 2))ms" : "\(Int(us))µs"
  }
}
