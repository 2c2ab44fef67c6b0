import Containment

/// A controller for the supervised tree whose appearance hooks can hang (until
/// the run ends) or be slow (well within the deadline). Counted with the bulk
/// controllers, so the leak check sees it released once its hook returned.
actor HangingController: ViewController {
  enum Behaviour: Int, Sendable, CaseIterable {
    case hangInWillAppear, hangInDidAppear, slow, plain
    var hangs: Bool { self == .hangInWillAppear || self == .hangInDidAppear }
  }

  nonisolated let node: ControllerNode
  private nonisolated let behaviour: Behaviour
  private nonisolated let tree: SupervisedTree

  init(name: String, behaviour: Behaviour, tree: SupervisedTree) {
    node = ControllerNode(name: name)
    self.behaviour = behaviour
    self.tree = tree
    PlainController.live.withLock { $0 += 1 }
  }

  deinit { PlainController.live.withLock { $0 -= 1 } }

  func viewWillAppear(_ animated: Bool) async {
    if behaviour == .hangInWillAppear { await tree.hang("\(node.name).viewWillAppear") }
    if behaviour == .slow { try? await Task.sleep(for: SupervisedTree.slowHook) }
  }

  func viewDidAppear(_ animated: Bool) async {
    if behaviour == .hangInDidAppear { await tree.hang("\(node.name).viewDidAppear") }
  }
}

/// The tree of `--fault hung-hook`, beside the modelled ones: a window whose
/// environment bounds hooks (`--hook-deadline`, isolate policy), holding a
/// container that takes controllers whose hooks hang or are slow. Every hang
/// must time out, fault its controller and see it isolated, while the rest
/// of the run goes on; with no deadline, the hang stalls its worker and the
/// watchdog names the hook (`hooksRunning`).
final class SupervisedTree: Sendable {
  /// How long a slow hook takes: far below any sensible deadline.
  static let slowHook = Duration.milliseconds(2)

  let window: Window
  let root: PlainController
  let container: PlainController
  let environment: ContainmentEnvironment
  /// Hooks hanging right now, by "Name.hook", and their release.
  private let hanging = Locked<(names: Set<String>, waiters: [UnsafeContinuation<Void, Never>], released: Bool)>(
    ([], [], false))
  /// One hang at a time: each holds its worker for the deadline, and more
  /// would starve the rest of the workload.
  let hangInFlight = Locked(false)
  /// Planted hangs, faults seen (hookTimedOut) and isolations seen (removed with reason faulted).
  let tally = Locked<(planted: Int, timedOut: Int, isolated: Int)>((0, 0, 0))

  init(deadline: Duration?) {
    environment = ContainmentEnvironment(clock: ContinuousClock(), hookDeadline: deadline, faultPolicy: .isolate)
    window = Window(environment: environment)
    root = PlainController(name: "Supervised", environment: environment)
    container = PlainController(name: "SupervisedContainer", environment: environment)
  }

  func setUp() async throws {
    try await window.setRootViewController(root)
    try await root.addChild(container)
    try await root.view.addSubview(await container.view)
    await container.didMove(toParent: root)
  }

  /// Suspends until the run releases every hung hook.
  func hang(_ name: String) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let released = hanging.withLock { state -> Bool in
        if state.released { return true }
        state.names.insert(name)
        state.waiters.append(continuation)
        return false
      }
      if released { continuation.resume() }
    }
  }

  /// The hooks hanging now, for the watchdog's report.
  var hooksRunning: [String] { hanging.withLock { $0.names.sorted() } }

  /// Lets every hung hook return (the run is over).
  func releaseAll() {
    let waiters = hanging.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.released = true
      state.names.removeAll()
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func tearDown() async {
    releaseAll()
    try? await window.tearDown()
    await container.tearDown()
  }

  var references: [WeakReference] {
    [
      WeakReference(window, label: "supervised window"), WeakReference(root, label: "Supervised"),
      WeakReference(container, label: "SupervisedContainer"),
    ]
  }
}

/// `--fault hung-hook`: a controller added to the supervised container (the
/// UIKit three steps), whose `viewWillAppear` or `viewDidAppear` hangs
/// (variants 0, 1; one at a time, else it runs plain), is slow (2) or plain (3). A hang must fault the
/// controller (`waitUntil(.faulted)`) and the isolate policy must take it out
/// of the container; the others are removed again the ordinary way and must
/// not be faulted. Anything else is a finding.
struct HungHookKind: OperationKind {
  let name = OperationKindName.hungHook
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard world.supervised != nil else { return nil }
    return Operation(id: id, kind: name, targets: [], variant: rng.below(HangingController.Behaviour.allCases.count))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    guard let tree = run.world.supervised else { return .failed("no supervised tree") }
    var behaviour = HangingController.Behaviour(rawValue: operation.variant)!
    if behaviour.hangs {
      let claimed = tree.hangInFlight.withLock { busy in
        defer { busy = true }
        return !busy
      }
      if !claimed { behaviour = .plain }
    }
    defer { if behaviour.hangs { tree.hangInFlight.withLock { $0 = false } } }
    let controller = HangingController(name: "Hang\(operation.id)", behaviour: behaviour, tree: tree)
    if behaviour.hangs { tree.tally.withLock { $0.planted += 1 } }
    let container = tree.container
    do {
      try await container.addChild(controller)
      try await container.view.addSubview(await controller.view)
      await controller.didMove(toParent: container)
    } catch {
      return outcome(of: error)
    }
    func report(_ message: String) {
      run.report(
        Finding(category: .invariant, message: "\(controller.node.name): \(message)", operations: [operation.id]))
    }
    if behaviour.hangs {
      do {
        try await controller.waitUntil(.faulted)
        tree.tally.withLock { $0.timedOut += 1 }
        // The isolation is a request of its own, queued on the container.
        try await container.waitUntil(.idle)
      } catch {
        return outcome(of: error)
      }
      if controller.parent == nil, controller.viewIfLoaded?.superview == nil {
        tree.tally.withLock { $0.isolated += 1 }
      } else {
        report("faulted but still in its container after the container went idle")
      }
      return .succeeded
    }
    if controller.isFaulted { report("faulted though its hooks returned in time") }
    do {
      await controller.willMove(toParent: nil)
      try await controller.removeFromParent()
    } catch {
      return outcome(of: error)
    }
    return .succeeded
  }
}

/// A task waits for a controller's tree to be idle (`waitUntil(.idle)`)
/// while the workload keeps trees busy and merges and splits them, moving
/// the waiter's tree from one link lock to another. It must return once the
/// tree is idle (at the latest at the next quiescent point; a waiter that
/// is never woken is a stall the watchdog reports), or leave when the
/// workload cancels it.
struct AwaitIdleKind: OperationKind {
  let name = OperationKindName.awaitIdle
  let weight = 2

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [rng.below(world.controllers.count)])
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    do {
      try await run.world[operation.targets[0]].waitUntil(.idle)
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}
