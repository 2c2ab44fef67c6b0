import Containment
import ContainmentLocking
import ContainmentTestKit

/// A controller for the supervised tree whose `loadView` or appearance hooks
/// can hang (until the harness releases them) or be slow (well within the
/// deadline). Counted with the bulk controllers, so the leak check sees it
/// released once its hung code returned.
actor HangingController: ViewController {
  enum Behaviour: Sendable {
    case hangInLoadView, hangInWillAppear, hangInDidAppear, slow, plain
  }

  nonisolated let node: ControllerNode
  private nonisolated let behaviour: Behaviour
  /// The hung calls' registry, not the tree: a controller left in the tree
  /// must not keep it alive.
  private nonisolated let tree: HangRegistry

  init(name: String, behaviour: Behaviour, tree: SupervisedTree) {
    node = ControllerNode(name: name)
    self.behaviour = behaviour
    self.tree = tree.hangs
    PlainController.live.withLock { $0 += 1 }
  }

  deinit { PlainController.live.withLock { $0 -= 1 } }

  func loadView() async -> View {
    if behaviour == .hangInLoadView { await tree.hang("\(node.name).loadView") }
    return View(label: node.name)
  }

  func viewWillAppear(_ animated: Bool) async {
    if behaviour == .hangInWillAppear { await tree.hang("\(node.name).viewWillAppear") }
    if behaviour == .slow { try? await Task.sleep(for: SupervisedTree.slowHook) }
  }

  func viewDidAppear(_ animated: Bool) async {
    if behaviour == .hangInDidAppear { await tree.hang("\(node.name).viewDidAppear") }
  }
}

/// A tab bar delegate whose `shouldSelect` hangs (or allows at once).
actor HangingTabDelegate: TabBarControllerDelegate {
  private let hangs: String?
  private let tree: HangRegistry

  init(hangs: String?, tree: SupervisedTree) {
    self.hangs = hangs
    self.tree = tree.hangs
  }

  func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: any ViewController) async
    -> Bool
  {
    if let hangs { await tree.hang(hangs) }
    return true
  }
}

/// A navigation delegate whose `willShow` hangs (or returns at once).
actor HangingNavigationDelegate: NavigationControllerDelegate {
  private let hangs: String?
  private let tree: HangRegistry

  init(hangs: String?, tree: SupervisedTree) {
    self.hangs = hangs
    self.tree = tree.hangs
  }

  func navigationController(
    _ navigationController: NavigationController, willShow viewController: any ViewController, animated: Bool
  ) async {
    if let hangs { await tree.hang(hangs) }
  }
}

/// The supervised tree's container: a custom container with its own rules
/// for losing a child (``ChildRemovalPolicy``), so that every isolation from
/// it goes through them. Its rule keeps everything else as it is: the
/// remaining children, those whose views are installed still shown.
actor SupervisedContainer: ViewController, ChildRemovalPolicy {
  nonisolated let node: ControllerNode
  /// How many times the runtime asked it to let a child go.
  nonisolated let asked = Locked(0)

  init(name: String, environment: ContainmentEnvironment) {
    node = ControllerNode(name: name)
    node.environment = environment
  }

  func childrenChange(removing child: any ViewController, reason: RemovalReason) async -> ChildrenChange? {
    asked.withLock { $0 += 1 }
    let remaining = node.children.filter { $0 !== child }
    let view = node.viewIfLoaded
    let shown = remaining.filter { $0.viewIfLoaded.map { $0.superview === view } ?? false }
    return ChildrenChange(children: remaining, shown: shown)
  }
}

/// What counts of `--fault hung-hook`.
struct SupervisionTally: Sendable {
  /// Hangs planted with a deadline, faults seen (`hookTimedOut`) and
  /// isolations seen (taken out of the container).
  var planted = 0
  var timedOut = 0
  var isolated = 0
  /// Timed out (with a deadline) or abandoned (by a teardown), by site.
  var bySite: [HangSite: Int] = [:]
  /// With no deadline and a teardown policy: hangs planted each in a tree
  /// of its own, calls reported abandoned, trees built and torn down, and
  /// the longest teardown.
  var plantedForTeardown = 0
  var abandoned = 0
  var treesBuilt = 0
  var treesTornDown = 0
  var longestTeardown = Duration.zero
}

/// The tree of `--fault hung-hook`, beside the modelled ones: a window whose
/// environment bounds calls into user code (`--hook-deadline`, isolate
/// policy, and the teardown policy of `--teardown-graceful` and
/// `--teardown-abandon`), holding a container that takes controllers,
/// containers and scopes whose code hangs or is slow.
///
/// With a deadline, every hang must time out, fault its owner and see it
/// isolated, while the rest of the run goes on. With no deadline and no
/// teardown policy, the hang stalls its worker and the watchdog names the hook
/// (`hooksRunning`). With no deadline and a teardown policy, each hang is
/// planted in a tree of its own, which is then torn down: the teardown must
/// abandon the hung call (`hookAbandoned`) and end; the main tree is torn down
/// at the end of the run with one last hang planted in it.
final class SupervisedTree: Sendable {
  /// How long a slow hook takes: far below any sensible deadline.
  static let slowHook = Duration.milliseconds(2)

  let window: Window
  let root: PlainController
  let container: SupervisedContainer
  let environment: ContainmentEnvironment
  /// No deadline, a teardown policy: hangs are ended by teardowns.
  let tearsDownHangs: Bool
  /// The calls hanging now.
  let hangs = HangRegistry()
  /// Where hangs are planted: every site, with or without a deadline (a
  /// teardown's escalation, like a deadline, counts only a call's own time).
  var sites: [HangSite] { HangSite.allCases }
  /// One hang at a time: each holds its worker for the deadline, and more
  /// would starve the rest of the workload.
  let hangInFlight = Locked(false)
  let tally = Locked(SupervisionTally())
  /// Containers and windows made for single operations, for the leak check
  /// (those already released are dropped as new ones come).
  private let extras = Locked<[WeakReference]>([])
  /// Found while the tree was torn down at the end of the run.
  private let lateFindings = Locked<[Finding]>([])

  init(deadline: Duration?, teardown: TeardownPolicy) {
    environment = ContainmentEnvironment(
      clock: ContinuousClock(), teardown: teardown, hookDeadline: deadline, faultPolicy: .isolate)
    tearsDownHangs = deadline == nil && teardown.graceful != nil
    window = Window(environment: environment)
    root = PlainController(name: "Supervised", environment: environment)
    container = SupervisedContainer(name: "SupervisedContainer", environment: environment)
  }

  func setUp() async throws {
    try await window.setRootViewController(root)
    try await root.addChild(container)
    try await root.view.addSubview(await container.view)
    await container.didMove(toParent: root)
  }

  func hang(_ name: String) async { await hangs.hang(name) }
  func arrival(of name: String) async { await hangs.arrival(of: name) }
  func release(_ name: String) { hangs.release(name) }
  func releaseAll() { hangs.releaseAll() }
  /// The hooks hanging now, for the watchdog's report.
  var hooksRunning: [String] { hangs.hooksRunning }

  /// Keeps a weak reference to `object` for the leak check.
  func track(_ object: AnyObject, label: String) {
    extras.withLock { references in
      references.removeAll { $0.object == nil }
      references.append(WeakReference(object, label: label))
    }
  }

  func tearDown() async {
    if tearsDownHangs { await tearDownWithLastHang() }
    releaseAll()
    try? await window.tearDown()
    await container.tearDown()
  }

  /// No deadline, a teardown policy: the window is torn down while a hook
  /// of a controller in the container hangs.
  ///
  /// The teardown must abandon it and end, and every controller of the tree be
  /// torn down.
  private func tearDownWithLastHang() async {
    let controller = HangingController(name: "HangAtEnd", behaviour: .hangInWillAppear, tree: self)
    let name = "HangAtEnd.viewWillAppear"
    tally.withLock { $0.plantedForTeardown += 1 }
    do {
      try await container.addChild(controller)
    } catch {
      lateFindings.withLock { $0.append(Finding(category: .invariant, message: "HangAtEnd: addChild threw \(error)")) }
      return
    }
    let planting = Planting(
      site: .viewWillAppear, name: name, owner: controller, others: [root, container],
      request: { [container] in try await container.view.addSubview(await controller.view) })
    let problems = await tearDownHung(planting, window: window, root: root)
    lateFindings.withLock { findings in
      findings += problems.map { Finding(category: .invariant, message: "HangAtEnd: \($0)") }
    }
  }

  /// Runs `planting`'s request, waits for its call to hang, tears down
  /// `window` and checks what the teardown did: it ended within the
  /// policy's time (plus scheduling), every controller was torn down, the
  /// hung call was reported abandoned on its owner's stream and the owner
  /// faulted; the request returned.
  ///
  /// Returns the problems found.
  func tearDownHung(_ planting: Planting, window: Window, root: any ViewController) async -> [String] {
    let policy = environment.teardown
    let limit = (policy.graceful ?? .zero) + (policy.abandonAfter ?? .zero) + .seconds(2)
    let fault = planting.firstFault()
    let request = Task { try await planting.request() }
    await arrival(of: planting.name)
    tally.withLock { $0.treesBuilt += 1 }
    let start = ContinuousClock.now
    var problems: [String] = []
    let stage = Locked("the window's teardown")
    let ended = await within(limit) {
      try? await window.tearDown()
      for controller in [root, planting.owner] + planting.others {
        stage.withLock { $0 = "waiting for \(controller.node.name) to be torn down" }
        try? await controller.waitUntil(.tornDown)
      }
    }
    let took = ContinuousClock.now - start
    defer { release(planting.name) }
    guard ended else {
      fault.cancel()
      let step = stage.withLock { $0 }
      return ["the teardown of its window did not end within \(limit) (the hung call: \(planting.name); still \(step))"]
    }
    tally.withLock {
      $0.treesTornDown += 1
      $0.longestTeardown = max($0.longestTeardown, took)
    }
    let expected = LifecycleEvent.Kind.hookAbandoned(hook: planting.site.hook)
    let reported = await fault.value
    if reported == expected {
      tally.withLock {
        $0.abandoned += 1
        $0.bySite[planting.site, default: 0] += 1
      }
    } else {
      let seen = reported.map { "\($0)" } ?? "no fault on its stream"
      problems.append("\(planting.name) was not reported abandoned: \(seen)")
    }
    if !planting.owner.isFaulted { problems.append("\(planting.owner.node.name) is not faulted though abandoned") }
    for other in planting.others where other.isFaulted {
      problems.append("\(other.node.name) is faulted for \(planting.name), not its own code")
    }
    if case .failure(let error) = await request.result, !planting.site.expects(error, of: planting.owner) {
      problems.append("the request that ran \(planting.name) threw \(error)")
    }
    return problems
  }

  /// Checked once the workload has ended: every hang planted with a
  /// deadline timed out and was isolated.
  var workloadFindings: [Finding] {
    let tally = tally.withLock { $0 }
    guard tally.timedOut != tally.planted || tally.isolated != tally.planted else {
      // Every hang is planted in the container or below it: isolations from
      // it must have gone through its rules.
      if tally.isolated > 0, container.asked.withLock({ $0 }) == 0 {
        return [
          Finding(
            category: .invariant,
            message:
              "supervised tree: \(tally.isolated) controllers isolated, the container's removal policy never asked")
        ]
      }
      return []
    }
    return [
      Finding(
        category: .invariant,
        message:
          "supervised tree: \(tally.planted) hangs planted, \(tally.timedOut) hooks timed out, \(tally.isolated) controllers isolated"
      )
    ]
  }

  /// Checked after the teardown at the end of the run.
  var teardownFindings: [Finding] {
    var findings = lateFindings.withLock { $0 }
    let tally = tally.withLock { $0 }
    if tearsDownHangs, tally.treesTornDown != tally.treesBuilt || tally.abandoned != tally.plantedForTeardown {
      findings.append(
        Finding(
          category: .invariant,
          message:
            "supervised trees: \(tally.treesBuilt) built with a hang, \(tally.treesTornDown) torn down; \(tally.plantedForTeardown) hangs planted, \(tally.abandoned) calls abandoned"
        ))
    }
    return findings
  }

  /// The report's `faults` line (with a deadline).
  var faults: (planted: Int, timedOut: Int, isolated: Int)? {
    guard !tearsDownHangs else { return nil }
    return tally.withLock { ($0.planted, $0.timedOut, $0.isolated) }
  }

  /// The report's lines for the supervised tree.
  var summaryLines: [String] {
    let tally = tally.withLock { $0 }
    let sites = self.sites.map { "\($0.label) \(tally.bySite[$0, default: 0])" }.joined(separator: ", ")
    guard tearsDownHangs else { return ["hangs        timed out by site: \(sites)"] }
    let policy = environment.teardown
    func milliseconds(_ duration: Duration?) -> String { duration.map { "\(Int($0.seconds * 1000)) ms" } ?? "none" }
    return [
      "teardown     \(tally.treesTornDown) supervised trees torn down (longest \(milliseconds(tally.longestTeardown)); graceful \(milliseconds(policy.graceful)), abandon \(milliseconds(policy.abandonAfter))), \(tally.abandoned) hung calls abandoned",
      "hangs        abandoned by site: \(sites)",
    ]
  }

  var references: [WeakReference] {
    [
      WeakReference(window, label: "supervised window"), WeakReference(root, label: "Supervised"),
      WeakReference(container, label: "SupervisedContainer"),
    ] + extras.withLock { $0 }
  }
}

/// The hung calls of `--fault hung-hook`, by "Name.call", and the tasks
/// waiting for one to begin.
final class HangRegistry: Sendable {
  private struct State {
    var hung: [String: UnsafeContinuation<Void, Never>] = [:]
    var arrivals: [String: UnsafeContinuation<Void, Never>] = [:]
    var released = false
  }

  private let state = Locked(State())

  /// Suspends until the harness releases `name` (or the run releases every
  /// hung call).
  ///
  /// Ignores cancellation, as hung code does.
  func hang(_ name: String) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let (released, arrival) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
        if state.released { return (true, nil) }
        state.hung[name] = continuation
        return (false, state.arrivals.removeValue(forKey: name))
      }
      arrival?.resume()
      if released { continuation.resume() }
    }
  }

  /// Returns once `name` hangs (at once if it does, or if the run released everything).
  func arrival(of name: String) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        if state.released || state.hung[name] != nil { return true }
        state.arrivals[name] = continuation
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Lets the hung call `name` return (its caller stopped waiting long ago).
  func release(_ name: String) {
    state.withLock { $0.hung.removeValue(forKey: name) }?.resume()
  }

  /// The hooks hanging now, for the watchdog's report.
  var hooksRunning: [String] { state.withLock { $0.hung.keys.sorted() } }

  /// Lets every hung call return (the run is over).
  func releaseAll() {
    let waiters = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.released = true
      defer {
        state.hung.removeAll()
        state.arrivals.removeAll()
      }
      return Array(state.hung.values) + Array(state.arrivals.values)
    }
    for waiter in waiters { waiter.resume() }
  }
}

extension Options {
  /// The supervised trees' teardown policy: either flag sets both deadlines.
  var supervisedTeardown: TeardownPolicy {
    guard teardownGraceful != nil || teardownAbandon != nil else { return .waitForever }
    return TeardownPolicy(
      graceful: teardownGraceful ?? .milliseconds(50), abandonAfter: teardownAbandon ?? .milliseconds(50))
  }
}

/// Runs `body` in a task of its own and returns true once it ends, or false
/// once `limit` has passed (the body then runs on, unwaited).
func within(_ limit: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
  let waiter = Locked<UnsafeContinuation<Bool, Never>?>(nil)
  let finish: @Sendable (Bool) -> Void = { ended in
    waiter.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }?.resume(returning: ended)
  }
  return await withUnsafeContinuation { continuation in
    waiter.withLock { $0 = continuation }
    let timer = Task {
      // Cancelled: the body ended first and reports it.
      guard (try? await Task.sleep(for: limit)) != nil else { return }
      finish(false)
    }
    Task {
      await body()
      finish(true)
      timer.cancel()
    }
  }
}

/// `--fault hung-hook`: the supervised tree gets code that hangs at one of
/// the sites the gateway supervises (`HangSite`, variants 0–6; one hang at
/// a time, else the site runs plain), or a controller whose hooks are slow
/// (7) or plain (8).
///
/// With a deadline, the hang is planted in the supervised container: it must
/// fault its owner (`waitUntil(.faulted)`, and `hookTimedOut` naming the
/// call on the owner's stream), nobody else, and the isolate policy must
/// take the owner out of the container; the hung call is then released. A
/// wait for the owner to appear, started with the request, must end: it
/// throws `faulted` if the owner was faulted before its stream said it
/// appeared.
/// With no deadline and a teardown policy, the hang is planted in a tree of
/// its own, which is torn down (`SupervisedTree.tearDownHung`). Slow and
/// plain controllers must not be faulted and are removed the ordinary way.
/// Anything else is a finding.
struct HungHookKind: OperationKind {
  let name = OperationKindName.hungHook
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard world.supervised != nil else { return nil }
    return Operation(id: id, kind: name, targets: [], variant: rng.below(HangSite.allCases.count + 2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    guard let tree = run.world.supervised else { return .failed("no supervised tree") }
    var site = HangSite(rawValue: operation.variant)
    if let planned = site, !tree.sites.contains(planned) { site = nil }
    if site != nil {
      let claimed = tree.hangInFlight.withLock { busy in
        defer { busy = true }
        return !busy
      }
      if !claimed { site = nil }
    }
    guard let site else {
      let slow = operation.variant == HangSite.allCases.count
      return await plainController(slow: slow, operation, run: run, tree: tree)
    }
    defer { tree.hangInFlight.withLock { $0 = false } }
    func report(_ message: String) {
      run.report(Finding(category: .invariant, message: message, operations: [operation.id]))
    }
    if tree.tearsDownHangs {
      let window = Window(environment: tree.environment)
      let root = PlainController(name: "Doomed\(operation.id)", environment: tree.environment)
      tree.track(window, label: "supervised window of op \(operation.id)")
      tree.tally.withLock { $0.plantedForTeardown += 1 }
      do {
        try await window.setRootViewController(root)
        let planting = try await site.plant(id: operation.id, hanging: true, in: root, tree: tree)
        for problem in await tree.tearDownHung(planting, window: window, root: root) { report(problem) }
        return .succeeded
      } catch {
        report("Doomed\(operation.id): setting up the hang at \(site.label) threw \(error)")
        return outcome(of: error)
      }
    }
    tree.tally.withLock { $0.planted += 1 }
    let container = tree.container
    let planting: Planting
    do {
      planting = try await site.plant(id: operation.id, hanging: true, in: container, tree: tree)
    } catch {
      return outcome(of: error)
    }
    defer { tree.release(planting.name) }
    let fault = planting.firstFault()
    let owner = planting.owner
    let appearance = site.ownerReportsAppeared.map { _ in Task { try await owner.waitUntil(.appeared) } }
    defer { appearance?.cancel() }
    func othersFaulted() {
      for other in planting.others where other.isFaulted {
        report("\(other.node.name) is faulted for \(planting.name), not its own code")
      }
    }
    // Bounded, so that a runtime that goes on waiting for the call, or
    // faults someone else, is a finding rather than a stalled worker.
    let limit = (tree.environment.hookDeadline ?? .zero) * 10 + .seconds(2)
    let request = Task { try await planting.request() }
    guard await within(limit, { _ = await request.result }) else {
      report("\(planting.name): the request did not return within \(limit): the runtime still waits for the call")
      fault.cancel()
      return .succeeded
    }
    if case .failure(let error) = await request.result, !site.expects(error, of: owner) {
      report("\(planting.name): the request threw \(error)")
    }
    guard await within(limit, { try? await owner.waitUntil(.faulted) }), owner.isFaulted else {
      report("\(owner.node.name) was not faulted within \(limit) for \(planting.name)")
      othersFaulted()
      fault.cancel()
      return .succeeded
    }
    tree.tally.withLock {
      $0.timedOut += 1
      $0.bySite[site, default: 0] += 1
    }
    do {
      // The isolation is a request of its own, queued on the container.
      try await container.waitUntil(.idle)
    } catch {
      fault.cancel()
      return outcome(of: error)
    }
    let reported = await fault.value
    var named = false
    if case .hookTimedOut(let hook, _)? = reported { named = hook == site.hook }
    if !named {
      let seen = reported.map { "\($0)" } ?? "no fault"
      report("\(owner.node.name) faulted, but its stream reports \(seen) for \(planting.name)")
    }
    othersFaulted()
    if let appearance, let appears = site.ownerReportsAppeared {
      if await within(limit, { _ = await appearance.result }) {
        let result = await appearance.result
        let expected: Bool
        switch result {
        case .success: expected = appears
        case .failure(let error): expected = !appears && error as? ContainmentError == .faulted(owner.node.id)
        }
        if !expected {
          report("\(owner.node.name): a wait for it to appear ended with \(result) for \(planting.name)")
        }
      } else {
        report("\(owner.node.name): a wait for it to appear did not end within \(limit) though it is faulted")
      }
    }
    if owner.parent == nil, owner.viewIfLoaded?.superview == nil {
      tree.tally.withLock { $0.isolated += 1 }
    } else {
      report("\(owner.node.name): faulted but still in its container after the container went idle")
    }
    return .succeeded
  }

  /// A controller whose hooks are slow or plain, added and removed the
  /// ordinary way: it must not be faulted.
  private func plainController(slow: Bool, _ operation: Operation, run: Run, tree: SupervisedTree) async -> Outcome {
    let controller = HangingController(
      name: "Hang\(operation.id)", behaviour: slow ? .slow : .plain, tree: tree)
    let container = tree.container
    do {
      try await container.addChild(controller)
      try await container.view.addSubview(await controller.view)
      await controller.didMove(toParent: container)
    } catch {
      return outcome(of: error)
    }
    if controller.isFaulted {
      run.report(
        Finding(
          category: .invariant, message: "\(controller.node.name): faulted though its hooks returned in time",
          operations: [operation.id]))
    }
    do {
      await controller.willMove(toParent: nil)
      try await controller.removeFromParent()
    } catch {
      return outcome(of: error)
    }
    return .succeeded
  }
}

extension World {
  /// What the supervised trees found: once the workload has ended, or
  /// after their teardown.
  func supervisionFindings(afterTeardown: Bool) -> [Finding] {
    if afterTeardown { return supervised?.teardownFindings ?? [] }
    return (supervised?.workloadFindings ?? []) + (slow?.workloadFindings ?? [])
  }

  /// The report's lines on the supervised trees.
  var supervisionLines: [String] { (supervised?.summaryLines ?? []) + (slow?.summaryLines ?? []) }
}

/// A task waits for a controller's tree to be idle (`waitUntil(.idle)`)
/// while the workload keeps trees busy and merges and splits them, moving
/// the waiter's tree from one link lock to another.
///
/// It must return once the tree is idle (at the latest at the next quiescent
/// point; a waiter that is never woken is a stall the watchdog reports), or
/// leave when the workload cancels it.
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
