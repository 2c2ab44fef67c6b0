import CommandLineOptions
import Containment
import ContainmentLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Watches a run's heartbeat.
///
/// With no progress for `stall` while something is in flight, it prints what is
/// pending (the operations in flight and every controller's links) and ends the
/// process as a failed run with one deadlock. A run of `--seconds S` that has
/// not ended (checks included) after S + 10 % + 5 s is ended the same way, as
/// failed for its time limit. It also draws the progress line: refreshed in
/// place on a terminal, a line every 10 s otherwise.
final class Watchdog: Sendable {
  private let state = Locked(State())
  let options: Options

  struct State {
    var stopped = false
    var phase = "setup"
  }

  init(options: Options) { self.options = options }

  /// How long a run may take in all, or nil (`--operations`).
  var timeLimit: Duration? {
    options.operations == nil ? .seconds(options.seconds * 1.1 + 5) : nil
  }

  func enter(_ phase: String) { state.withLock { $0.phase = phase } }
  func stop() { state.withLock { $0.stopped = true } }

  func watch(_ run: Run) async {
    let start = ContinuousClock.now
    var lastProgress = -1
    var lastChange = start
    var lastLine = start
    var samples: [(ContinuousClock.Instant, Int)] = []
    var lastPhase = ""
    var lastEpochs = 0
    let live = Terminal.stderrIsTerminal && !options.quiet
    while true {
      try? await Task.sleep(for: .milliseconds(100))
      let (stopped, phase) = state.withLock { ($0.stopped, $0.phase) }
      if stopped { break }
      let now = ContinuousClock.now
      let progress = run.progress
      let pending = run.inFlight.withLock { $0.count }
      if progress != lastProgress || pending == 0 {
        lastProgress = progress
        lastChange = now
      } else if now - lastChange >= .seconds(options.stallSeconds) {
        deadlock(run, phase: phase, stalled: now - lastChange)
      }
      if let limit = timeLimit, now - start > limit { outOfTime(run, phase: phase, limit: limit) }
      guard !options.quiet else { continue }
      let done = run.completed
      samples.append((now, done))
      samples.removeAll { now - $0.0 > .seconds(10) }
      // Off a terminal: a line as each epoch is checked (its resident memory
      // is the soak's record), every 10 s without one, and as each phase begins.
      let epochs = run.checkProgress.withLock { $0.epochsChecked }
      guard
        live
          ? now - lastLine >= .milliseconds(250)
          : now - lastLine >= .seconds(10) || phase != lastPhase || epochs != lastEpochs
      else {
        continue
      }
      lastLine = now
      lastEpochs = epochs
      lastPhase = phase
      let line = progressLine(
        run, phase: phase, elapsed: now - start, done: done,
        rate: samples.first.map { Double(done - $0.1) / max((now - $0.0).seconds, 0.1) } ?? 0)
      Terminal.error(live ? "\r\u{1B}[2K" + line : line + "\n")
    }
    if live { Terminal.error("\r\u{1B}[2K") }
  }

  private func progressLine(_ run: Run, phase: String, elapsed: Duration, done: Int, rate: Double) -> String {
    let total =
      options.operations.map { "  \(done)/\($0) operations" } ?? "/\(format(options.seconds, 0))s  \(done) operations"
    let checked = run.checkProgress.withLock { $0.epochsChecked }
    let memory = ProcessStatus.memory().map { "  RSS \(megabytes($0.resident))" } ?? ""
    return
      "\(phase) \(format(elapsed.seconds, 1))s\(total)  \(Int(rate))/s  epochs checked \(checked)  findings \(run.findingsSoFar)\(memory)"
  }

  /// Where a run the watchdog ends is reported: standard output, unless
  /// it is kept for the JSON document (`--json`), which such a run never prints.
  private var reportStream: StandardStream { options.json ? .error : .output }

  /// The run (its checks included) has overrun its time: fail rather than run on.
  private func outOfTime(_ run: Run, phase: String, limit: Duration) -> Never {
    let checked = run.checkProgress.withLock { $0.epochsChecked }
    let findings = run.findingsSoFar
    reportStream.write(
      """

      TIME LIMIT: the run did not end within \(format(limit.seconds, 1))s (--seconds \(format(options.seconds, 0)) + 10 % + 5 s); \
      still in \(phase) with \(checked) epochs checked, \(findings) findings so far. The unchecked rest is not reported.
      seed: \(options.seedText)
      stress: \(run.completed) operations, \(findings + 1) violations, 0 deadlocks, 0 leaks

      """)
    Terminal.flush()
    exit(1)
  }

  private func deadlock(_ run: Run, phase: String, stalled: Duration) -> Never {
    var lines = ["", "DEADLOCK: no progress for \(stalled) during \(phase); pending operations:"]
    let pending = run.inFlight.withLock { $0 }.sorted { $0.key < $1.key }
    for (id, (summary, since)) in pending {
      lines.append("  op \(id) \(summary), waiting since \(since)")
    }
    lines.append("controllers:")
    for controller in run.world.controllers {
      let parent = controller.parent?.node.name ?? "-"
      let children = controller.children.map(\.node.name).joined(separator: ",")
      lines.append(
        "  \(controller.node.name): parent \(parent), children [\(children)], \(controller.node.appearanceState), view \(controller.viewIfLoaded?.superview == nil ? "detached" : "installed")"
      )
    }
    lines.append("queues held or with pending requests:")
    var queues: [String] = []
    let world = run.world
    for node in world.controllers.map(\.node)
      + (world.navigations as [any ViewController] + world.tabs + world.splits).map(\.node)
    {
      let queue = node.queueSnapshot
      if queue.isHeld || queue.pending > 0 { queues.append("  \(queue)") }
    }
    for (tree, window) in run.world.windows.enumerated() {
      let queue = window.queueSnapshot
      if queue.isHeld || queue.pending > 0 { queues.append("  window of tree \(tree) (R\(tree)): \(queue)") }
    }
    lines += queues.isEmpty ? ["  none"] : queues
    // What each controller's exclusion slot counts and who waits on it.
    lines.append("exclusion slots not idle:")
    let slots =
      world.controllers.map(\.node)
      + (world.navigations as [any ViewController] + world.tabs + world.splits).map(\.node)
    lines += slots.compactMap { $0.exclusionSnapshot.map { "  " + $0 } }
    for (tree, window) in run.world.windows.enumerated() {
      lines.append("  window of tree \(tree) (R\(tree)): \(window.exclusionSnapshot)")
    }
    let awaiting = world.controllers.compactMap { controller in
      let hooks = controller.awaiting.withLock { $0 }
      return hooks.isEmpty ? nil : "\(controller.node.name) in \(hooks.joined(separator: ", "))"
    }
    if !awaiting.isEmpty {
      lines.append("hooks awaiting an armed request: \(awaiting.joined(separator: "; "))")
    }
    if let hooks = run.world.supervised?.hooksRunning, !hooks.isEmpty {
      lines.append("hooks that have not returned: \(hooks.joined(separator: ", "))")
    }
    lines.append("seed: \(options.seedText)")
    let completed = run.completed
    lines.append("stress: \(completed) operations, \(run.findingsSoFar) violations, 1 deadlocks, 0 leaks")
    reportStream.write(lines.joined(separator: "\n") + "\n")
    Terminal.flush()
    exit(1)
  }
}

func format(_ value: Double, _ decimals: Int) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = "\(rounded)"
  if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
  return text
}
