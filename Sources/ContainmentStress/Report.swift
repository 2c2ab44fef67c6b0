import Containment

/// The numbers and findings of a run, as text or JSON.
struct Report {
  struct KindCount {
    var total = 0, succeeded = 0, failed = 0, cancelled = 0
  }

  var options: Options
  var operations = 0
  var nested = 0
  var seconds = 0.0
  var byKind: [(OperationKindName, KindCount)] = []
  var p50 = Duration.zero
  var p99 = Duration.zero
  var maxLatency = Duration.zero
  var events = 0
  var subscriberEvents = 0
  var subscribers = 0
  var lostEvents = 0
  var lostMarkers = 0
  var lagged = 0
  var quiescentChecks = 0
  var replayed = 0
  var replayedContainers = Checks.ReplayedContainers()
  var findings: [Finding] = []
  var leaks: [String] = []
  var reduction: (operations: [Operation], reproduced: Bool, trials: Int)?
  var names: [String] = []
  var reducedFinding: Finding?

  var violations: Int { findings.filter(\.isViolation).count }
  var deadlocks: Int { findings.filter { $0.category == .deadlock }.count }

  init(options: Options, result: RunResult, checks: Checks) {
    self.options = options
    let records = result.history.records
    let top = records.filter { !$0.nested }
    operations = top.count
    nested = records.count - top.count
    seconds = result.elapsed.seconds
    var counts: [OperationKindName: KindCount] = [:]
    for record in top {
      var count = counts[record.operation.kind] ?? KindCount()
      count.total += 1
      switch record.outcome {
      case .succeeded: count.succeeded += 1
      case .failed: count.failed += 1
      case .cancelled: count.cancelled += 1
      }
      counts[record.operation.kind] = count
    }
    byKind = OperationKindName.allCases.compactMap { kind in counts[kind].map { (kind, $0) } }
    let latencies = top.map { $0.end - $0.start }.sorted()
    if !latencies.isEmpty {
      p50 = latencies[latencies.count / 2]
      p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
      maxLatency = latencies.last!
    }
    events = result.history.events.reduce(0) { $0 + $1.count }
    subscriberEvents = checks.subscriberEvents
    subscribers = result.history.others.count
    lostEvents = checks.lostEvents
    lostMarkers = checks.lostMarkers
    lagged = checks.laggedDisconnects
    quiescentChecks = result.quiescentChecks
    replayed = checks.replayedTransactions
    replayedContainers = checks.replayedContainers
    findings = result.findings + checks.findings + result.leaks.map { Finding(category: .leak, message: "\($0) is still alive after the run released it") }
    leaks = result.leaks
    names = result.history.names
  }

  var summaryLine: String {
    "stress: \(operations) operations, \(violations) violations, \(deadlocks) deadlocks, \(leaks.count) leaks"
  }

  func text() -> String {
    var lines: [String] = []
    let fault = options.fault.map { "  fault=\($0.rawValue)" } ?? ""
    lines.append("containment-stress  seed=0x\(String(options.seed, radix: 16))  tasks=\(options.tasks)  trees=\(options.trees)  controllers=\(names.count)\(fault)")
    lines.append("operations   \(operations) in \(format(seconds, 1))s = \(Int(Double(operations) / max(seconds, 0.001)))/s, plus \(nested) requested from inside hooks")
    lines.append("latency      p50 \(p50.micros)  p99 \(p99.micros)  max \(maxLatency.micros)")
    lines.append("by kind      kind               total  succeeded  refused  cancelled")
    for (kind, count) in byKind {
      lines.append("             \(pad(kind.rawValue, 17)) \(pad("\(count.total)", 6, left: true)) \(pad("\(count.succeeded)", 10, left: true)) \(pad("\(count.failed)", 8, left: true)) \(pad("\(count.cancelled)", 10, left: true))")
    }
    lines.append("events       \(events) recorded; \(subscribers) other subscribers got \(subscriberEvents), lost \(lostEvents) in \(lostMarkers) exact markers, \(lagged) disconnected for lag")
    lines.append("checks       \(quiescentChecks) quiescent invariant checks; \(replayed) transactions replayed on the model (\(replayedContainers.splitLayouts) split layouts, \(replayedContainers.traitChanges) trait changes, \(replayedContainers.interactivePops) interactive pops, \(replayedContainers.eventless) eventless reorders placed by time); hook grammar, hook logs, subscribers, expected errors, leaks")
    if findings.isEmpty {
      lines.append("findings     none")
    } else {
      lines.append("findings     \(findings.count)")
      for category in Finding.Category.allCases {
        let some = findings.filter { $0.category == category }
        guard !some.isEmpty else { continue }
        lines.append("  \(category.rawValue): \(some.count)")
        for finding in some.prefix(5) { lines.append("    - \(finding.message)") }
        if some.count > 5 { lines.append("    ... and \(some.count - 5) more") }
      }
      lines.append("seed         0x\(String(options.seed, radix: 16)) (re-run: containment-stress --seed 0x\(String(options.seed, radix: 16))\(options.fault.map { " --fault \($0.rawValue)" } ?? ""))")
      if let reduction {
        if reduction.reproduced {
          lines.append("reduced to   \(reduction.operations.count) operation(s) that, started together on a fresh world, again show the same kind of finding\(reducedFinding.map { " (\($0.category.rawValue))" } ?? "") (\(reduction.trials) trials):")
          for operation in reduction.operations { lines.append("    \(describe(operation))") }
        } else {
          lines.append("reduction    the failure did not reproduce from the candidate operations in \(reduction.trials) trials")
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  func describe(_ operation: Operation) -> String { operation.describe(names: names) }

  func json() -> String {
    var fields: [String] = []
    fields.append("\"seed\": \(options.seed)")
    fields.append("\"fault\": \(options.fault.map { json($0.rawValue) } ?? "null")")
    fields.append("\"tasks\": \(options.tasks), \"trees\": \(options.trees), \"controllers\": \(names.count)")
    fields.append("\"operations\": \(operations), \"nestedOperations\": \(nested), \"seconds\": \(format(seconds, 3))")
    fields.append("\"operationsPerSecond\": \(Int(Double(operations) / max(seconds, 0.001)))")
    fields.append("\"latencyMicroseconds\": {\"p50\": \(p50.microseconds), \"p99\": \(p99.microseconds), \"max\": \(maxLatency.microseconds)}")
    let kinds = byKind.map { kind, count in
      "\(json(kind.rawValue)): {\"total\": \(count.total), \"succeeded\": \(count.succeeded), \"refused\": \(count.failed), \"cancelled\": \(count.cancelled)}"
    }
    fields.append("\"byKind\": {\(kinds.joined(separator: ", "))}")
    fields.append("\"events\": \(events), \"subscribers\": \(subscribers), \"subscriberEvents\": \(subscriberEvents)")
    fields.append("\"lostEvents\": \(lostEvents), \"lostMarkers\": \(lostMarkers), \"laggedDisconnects\": \(lagged)")
    fields.append("\"quiescentChecks\": \(quiescentChecks), \"transactionsReplayed\": \(replayed), \"splitLayoutsReplayed\": \(replayedContainers.splitLayouts), \"traitChangesReplayed\": \(replayedContainers.traitChanges), \"interactivePopsReplayed\": \(replayedContainers.interactivePops), \"eventlessReorders\": \(replayedContainers.eventless)")
    fields.append("\"violations\": \(violations), \"deadlocks\": \(deadlocks), \"leaks\": \(leaks.count)")
    let items = findings.map { "{\"category\": \(json($0.category.rawValue)), \"message\": \(json($0.message))}" }
    fields.append("\"findings\": [\(items.joined(separator: ", "))]")
    if let reduction {
      fields.append("\"reduced\": {\"reproduced\": \(reduction.reproduced), \"trials\": \(reduction.trials), \"operations\": [\(reduction.operations.map { json(describe($0)) }.joined(separator: ", "))]}")
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
        if scalar.value < 0x20 { out += "\\u00\(scalar.value < 16 ? "0" : "")\(String(scalar.value, radix: 16))" } else { out.unicodeScalars.append(scalar) }
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
