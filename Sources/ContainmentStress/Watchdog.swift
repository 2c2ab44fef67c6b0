#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Containment

/// Watches a run's heartbeat. With no progress for `stall` while something is
/// in flight, it prints what is pending (the operations in flight and every
/// controller's links) and ends the process as a failed run with one deadlock.
/// It also draws the progress line.
final class Watchdog: Sendable {
  private let state = Locked(State())
  let options: Options

  struct State {
    var stopped = false
    var phase = "setup"
  }

  init(options: Options) { self.options = options }

  func enter(_ phase: String) { state.withLock { $0.phase = phase } }
  func stop() { state.withLock { $0.stopped = true } }

  func watch(_ run: Run) async {
    let start = ContinuousClock.now
    var lastProgress = -1
    var lastChange = ContinuousClock.now
    var lastLine = ContinuousClock.now
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
      let elapsed = now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let done = run.completed
      let findings = run.findings.withLock { $0.count }
      let line = "\(phase) \(format(seconds, 1))s  \(done) operations  \(Int(Double(done) / max(seconds, 0.001)))/s  in flight \(pending)  findings \(findings)"
      if live {
        Terminal.error("\r\u{1B}[2K" + line)
      } else if !options.quiet, now - lastLine >= .seconds(5) {
        Terminal.error(line + "\n")
        lastLine = now
      }
    }
    if live { Terminal.error("\r\u{1B}[2K") }
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
      lines.append("  \(controller.node.name): parent \(parent), children [\(children)], \(controller.node.appearanceState), view \(controller.viewIfLoaded?.superview == nil ? "detached" : "installed")")
    }
    lines.append("queues held or with pending requests:")
    var queues: [String] = []
    let world = run.world
    for node in world.controllers.map(\.node) + (world.navigations as [any ViewController] + world.tabs + world.splits).map(\.node) {
      let queue = node.queueSnapshot
      if queue.isHeld || queue.pending > 0 { queues.append("  \(queue)") }
    }
    for (tree, window) in run.world.windows.enumerated() {
      let queue = window.queueSnapshot
      if queue.isHeld || queue.pending > 0 { queues.append("  window of tree \(tree) (R\(tree)): \(queue)") }
    }
    lines += queues.isEmpty ? ["  none"] : queues
    lines.append("seed: 0x\(String(options.seed, radix: 16))")
    let completed = run.completed
    let violations = run.findings.withLock { $0.count }
    lines.append("stress: \(completed) operations, \(violations) violations, 1 deadlocks, 0 leaks")
    print(lines.joined(separator: "\n"))
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
