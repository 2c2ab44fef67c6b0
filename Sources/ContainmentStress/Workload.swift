import Containment
import ContainmentLocking
import ContainmentTestKit

/// Drives the random operations: `tasks` workers, each issuing operations
/// from its own seeded stream until the time or operation budget is spent
/// (or Ctrl-C); every `quiescentEvery` seconds the workers pause so the
/// invariants can be checked at a quiescent point, and the epoch before it.
struct Workload: Sendable {
  let run: Run
  let options: Options
  private let control = Locked(Control())

  struct Control {
    var stop = false
    var pauseRequested = false
    var busy = 0
    var issued = 0
    var quiescentChecks = 0
  }

  init(run: Run, options: Options) {
    self.run = run
    self.options = options
  }

  var quiescentChecks: Int { control.withLock { $0.quiescentChecks } }

  /// Runs the workload to the end.
  ///
  /// Returns when every worker has stopped.
  func execute(seed: SplitMix64) async {
    let start = ContinuousClock.now
    let deadline = options.operations == nil ? start + .seconds(options.seconds) : nil
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<options.tasks {
        var rng = seed.derived(UInt64(worker + 1))
        group.addTask {
          while await self.admit(until: deadline) {
            // A turn with nothing to do still counts against `--operations`,
            // so a workload that runs dry ends too.
            if let operation = await self.next(&rng) {
              await perform(operation, run: self.run)
              self.run.release(operation)
            }
            self.control.withLock { $0.busy -= 1 }
            // A turn need not suspend (a plain add, nothing to do): without
            // this, workers that fill the cooperative pool would starve the
            // timer task below (no stop, no quiescent check) and the subscribers.
            await Task.yield()
          }
        }
      }
      group.addTask {
        var lastCheck = ContinuousClock.now
        while !self.control.withLock({ $0.stop }) {
          try? await Task.sleep(for: .milliseconds(20))
          let elapsed = ContinuousClock.now - start
          if Interruption.requested || (options.operations == nil && elapsed >= .seconds(options.seconds)) {
            self.control.withLock { $0.stop = true }
          }
          if options.quiescentEvery > 0, ContinuousClock.now - lastCheck >= .seconds(options.quiescentEvery) {
            await self.quiescentCheck()
            lastCheck = ContinuousClock.now
          }
        }
      }
    }
  }

  /// A random operation; under the per-leaf profile, one whose leaves no
  /// running operation names (they stay claimed until it ends).
  ///
  /// Nil when the selected kinds have nothing to do.
  private func next(_ rng: inout SplitMix64) async -> Operation? {
    let world = run.world
    while true {
      guard let operation = OperationKinds.generate(&rng, world: world, id: run.nextOperationID(), options: options)
      else { return nil }
      guard options.profile == .perLeaf else { return operation }
      if run.claim(operation) { return operation }
      await Task.yield()
    }
  }

  /// Waits while a quiescent check is under way; false once the run is over
  /// (stopped, its operation budget spent, or `deadline` passed).
  private func admit(until deadline: ContinuousClock.Instant?) async -> Bool {
    while true {
      let now = ContinuousClock.now
      let state = control.withLock { control -> Bool? in
        if let deadline, now >= deadline { control.stop = true }
        if control.stop { return false }
        if control.pauseRequested { return nil }
        if let budget = options.operations, control.issued >= budget {
          control.stop = true
          return false
        }
        control.issued += 1
        control.busy += 1
        return true
      }
      if let state { return state }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Stops the workers between operations, checks every tree, lets them go on.
  func quiescentCheck() async {
    control.withLock { $0.pauseRequested = true }
    while control.withLock({ $0.busy > 0 }) { try? await Task.sleep(for: .milliseconds(1)) }
    await run.world.drainSplits()
    checkInvariants(run: run, when: "quiescent point at \(run.now())")
    await run.closeEpoch()
    control.withLock {
      $0.pauseRequested = false
      $0.quiescentChecks += 1
    }
  }
}

/// Runs one operation, timing it and recording its outcome.
func perform(_ operation: Operation, run: Run) async {
  let kind = OperationKinds.kind(operation.kind)
  let start = run.now()
  let summary = run.describe(operation)
  run.inFlight.withLock { $0[operation.id] = (summary, start) }
  let outcome = await withCancellation(operation.cancellation) { await kind.execute(operation, run: run) }
  run.inFlight.withLock { $0[operation.id] = nil }
  run.record(OperationRecord(operation: operation, summary: summary, start: start, end: run.now(), outcome: outcome))
}

/// R5, "separated again": every free-standing tree, given a transaction of
/// its own, no longer shares the link lock of a tree it left.
///
/// Runs at the quiescent end of the workload: each such transaction is
/// uncontended, so it separates its tree before it is admitted. Its body
/// does nothing, so it causes no event.
func checkSeparatedTrees(run: Run) async {
  let world = run.world
  let candidates = world.autoLeaves + world.hop.all + world.scoped.leaves + world.presentation.all
  for index in candidates {
    let root = world[index]
    guard root.parent == nil, root.presentingViewController == nil else { continue }
    do {
      try await root.withTransaction { _ in }
    } catch ContainmentError.tornDown {
      // Refused after its admission: the separation has happened.
    } catch {
      run.report(Finding(category: .invariant, message: "R5 check: \(run.name(index)): scope failed: \(error)"))
    }
    if root.node.sharesTheLockOfATreeItLeft {
      run.report(
        Finding(
          category: .invariant,
          message: "R5: \(run.name(index)) still shares the lock of a tree it left after a transaction of its own"))
    }
  }
}

/// §2 (+ appearance consistency) on every tree and every detached
/// automatic leaf, at a quiescent point.
func checkInvariants(run: Run, when: String) {
  let world = run.world
  var roots = world.roots.map { world[$0] }
  roots += world.autoLeaves.map { world[$0] }.filter { $0.parent == nil }
  roots += (world.hop.all + world.scoped.leaves).map { world[$0] }.filter { $0.parent == nil }
  // A presented controller is checked from its presenter's tree.
  roots += world.presentation.all.map { world[$0] }.filter { $0.parent == nil && $0.presentingViewController == nil }
  for violation in world.bulk.root.checkInvariants(quiescent: true) {
    run.report(Finding(category: .invariant, message: "\(when): bulk tree: \(violation.message)"))
  }
  for root in roots {
    for violation in root.checkInvariants(quiescent: true) {
      let name = world.indexByID[violation.controller].map { run.name($0) } ?? "\(violation.controller)"
      run.report(Finding(category: .invariant, message: "\(when): \(name): \(violation.message)"))
    }
  }
  for (tree, window) in world.windows.enumerated() where window.rootViewController !== world[world.roots[tree]] {
    run.report(Finding(category: .invariant, message: "\(when): window \(tree) lost its root"))
  }
}
