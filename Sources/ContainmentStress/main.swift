import CommandLineOptions
import Containment

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// containment-stress: hammers the runtime with concurrent operations,
// cancellations and misuse, proving the invariants epoch by epoch as it goes
// (see STRESS.md).

let options = Options.parseOrExit()

if options.fault == .skipQueue { FaultInjection.skipsQueue = true }
Interruption.install(quiet: options.quiet)

if options.workload == .server {
  let outcome = await ServerWorkload.execute(options: options)
  let report = ServerWorkload.Report(options: options, outcome: outcome)
  print(report.text())
  print(report.summaryLine)
  Terminal.flush()
  exit(report.findings.isEmpty && outcome.leaked == 0 ? 0 : 1)
}

let started = ContinuousClock.now
let watchdog = Watchdog(options: options)
let result = await StressRun.execute(options: options, watchdog: watchdog)
var report = Report(options: options, result: result, wallTime: ContinuousClock.now - started)

// The chosen kind, else each kind in turn (the most telling first) until one
// reproduces from its candidates, all within one time budget.
let chosen = options.reduceCategory.flatMap { name in report.findings.kept.first { $0.category.rawValue == name } }
let toReduce = chosen.map { [$0] } ?? Finding.reductionOrder(report.findings.kept)
if options.reduceSeconds > 0, !toReduce.isEmpty, !Interruption.requested {
  if !options.quiet { Terminal.error("reducing the failure (up to \(format(options.reduceSeconds, 0))s)...\n") }
  let budgetEnd = ContinuousClock.now + .seconds(options.reduceSeconds)
  for finding in toReduce {
    let remaining = ContinuousClock.now.duration(to: budgetEnd)
    guard remaining > .seconds(1), let evidence = result.summary.evidence[finding.category] else { continue }
    let reducer = Reducer(options: options, budget: remaining)
    let (start, candidates) = Reducer.candidates(for: finding, in: evidence, leaves: Set(result.leaves))
    report.reduction = await reducer.reduce(from: start, candidates, category: finding.category)
    report.reducedFinding = finding
    if report.reduction?.reproduced == true { break }
  }
}

// With --json, standard output holds the one JSON document and nothing else.
if options.json {
  StandardStream.output.write(report.json() + "\n")
  StandardStream.error.write(report.summaryLine + "\n")
} else {
  StandardStream.output.write(report.text() + "\n" + report.summaryLine + "\n")
}
exit(report.violations + report.deadlocks + report.leaks.count == 0 ? ExitStatus.success.code : ExitStatus.failure.code)
