import Containment
import ContainmentLocking
import ContainmentTestKit

/// A controller whose every hook (and `loadView`) takes a while: well
/// within the hook deadline on its own, past it once a few of them run
/// inside one call of a container. Counted with the bulk controllers.
actor SlowController: ViewController {
  nonisolated let node: ControllerNode
  private let pause: Duration

  init(name: String, pause: Duration, environment: ContainmentEnvironment) {
    node = ControllerNode(name: name)
    node.environment = environment
    self.pause = pause
    PlainController.live.withLock { $0 += 1 }
  }

  deinit { PlainController.live.withLock { $0 -= 1 } }

  private func nap() async { try? await Task.sleep(for: pause) }

  func loadView() async -> View {
    await nap()
    return View(label: node.name)
  }

  func viewDidLoad() async { await nap() }
  func viewWillAppear(_ animated: Bool) async { await nap() }
  func viewIsAppearing(_ animated: Bool) async { await nap() }
  func viewDidAppear(_ animated: Bool) async { await nap() }
  func viewWillDisappear(_ animated: Bool) async { await nap() }
  func viewDidDisappear(_ animated: Bool) async { await nap() }
  func viewWillMove(toParent parent: (any ViewController)?) async { await nap() }
  func viewDidMove(toParent parent: (any ViewController)?) async { await nap() }
  func traitCollectionDidChange(_ previous: TraitCollection?) async { await nap() }
  func viewDidTearDown() async { await nap() }
}

/// A navigation delegate that takes a while too: the navigation
/// controller's own code, well within the deadline.
actor SlowNavigationDelegate: NavigationControllerDelegate {
  private let pause: Duration
  init(pause: Duration) { self.pause = pause }

  func navigationController(
    _ navigationController: NavigationController, willShow viewController: any ViewController, animated: Bool
  ) async {
    try? await Task.sleep(for: pause)
  }

  func navigationController(
    _ navigationController: NavigationController, didShow viewController: any ViewController, animated: Bool
  ) async {
    try? await Task.sleep(for: pause)
  }
}

/// What `--fault slow-children` counts.
struct SlowChildrenTally: Sendable {
  /// Scope bodies (one call each) and container transactions (push, pop,
  /// trait change, ...) that ran past the deadline in wall time, and the longest.
  var scopesOverDeadline = 0
  var transactionsOverDeadline = 0
  var longest = Duration.zero
  var containersFaulted = 0
  var childrenFaulted = 0
  var operations = 0
}

/// The tree of `--fault slow-children`, beside the modelled ones: a window
/// whose environment sets a hook deadline (`--hook-deadline`, 100 ms by
/// default) with the isolate policy, holding a root container.
///
/// The `slowChildren` kind builds containers in it (and splits in windows of
/// their own) whose children's hooks take a fifth of the deadline each: a
/// container's scope body, or a navigation or split controller's transaction,
/// lasts several deadlines of wall time, spent in its children's hooks. A
/// deadline measures the code's *own* time (nested calls into other user code
/// pause the outer call's clock), so no container and no child may be faulted.
final class SlowChildrenTree: Sendable {
  let deadline: Duration
  /// How long each child's hook takes.
  let slowHook: Duration
  let environment: ContainmentEnvironment
  let window: Window
  let root: PlainController
  /// One such operation at a time: each takes about a second.
  let inFlight = Locked(false)
  let tally = Locked(SlowChildrenTally())
  private let extras = Locked<[WeakReference]>([])
  /// The longest the process overslept a 5 ms sleep since the last
  /// `takeStall()`, and the task measuring it.
  ///
  /// A hook's own time includes the time its task waits for a thread: on a
  /// starved machine a fault may be the machine's, and the finding says how
  /// long it stalled.
  private let stall = Locked(Duration.zero)
  private let probe = Locked<Task<Void, Never>?>(nil)

  init(deadline: Duration?) {
    self.deadline = deadline ?? .milliseconds(100)
    slowHook = self.deadline / 5
    environment = ContainmentEnvironment(clock: ContinuousClock(), hookDeadline: self.deadline, faultPolicy: .isolate)
    window = Window(environment: environment)
    root = PlainController(name: "Slow", environment: environment)
  }

  func setUp() async throws {
    try await window.setRootViewController(root)
    let task = Task.detached { [stall] in
      let clock = ContinuousClock()
      while !Task.isCancelled {
        let start = clock.now
        try? await Task.sleep(for: .milliseconds(5))
        let late = clock.now - start - .milliseconds(5)
        stall.withLock { $0 = max($0, late) }
      }
    }
    probe.withLock { $0 = task }
  }

  func tearDown() async {
    probe.withLock { $0 }?.cancel()
    try? await window.tearDown()
  }

  /// The longest stall since the last call.
  func takeStall() -> Duration {
    stall.withLock { longest in
      defer { longest = .zero }
      return longest
    }
  }

  func make(_ name: String) -> SlowController { SlowController(name: name, pause: slowHook, environment: environment) }

  func track(_ object: AnyObject, label: String) {
    extras.withLock { references in
      references.removeAll { $0.object == nil }
      references.append(WeakReference(object, label: label))
    }
  }

  /// Runs `body` as a scope on `container` and counts the body's wall time.
  func scope(_ container: any ViewController, _ body: @escaping @Sendable () async throws -> Void) async throws {
    let span = Locked(Duration.zero)
    try await container.withTransaction { _ in
      let start = ContinuousClock.now
      try await body()
      span.withLock { $0 = ContinuousClock.now - start }
    }
    count(span.withLock { $0 }, scope: true)
  }

  /// Runs `request` (a container's transaction, from outside) and counts its wall time.
  func timed(_ request: @Sendable () async throws -> Void) async throws {
    let start = ContinuousClock.now
    try await request()
    count(ContinuousClock.now - start, scope: false)
  }

  private func count(_ span: Duration, scope: Bool) {
    tally.withLock { tally in
      tally.longest = max(tally.longest, span)
      guard span > deadline else { return }
      if scope { tally.scopesOverDeadline += 1 } else { tally.transactionsOverDeadline += 1 }
    }
  }

  /// Findings for the faulted ones among `containers` and `children`,
  /// each with the call its stream reported late (`faults`, read since the
  /// operation began).
  func checkNoneFaulted(
    containers: [any ViewController], children: [any ViewController],
    faults: [ObjectIdentifier: Task<LifecycleEvent.Kind?, Never>]
  ) async -> [String] {
    let faultedContainers = containers.filter(\.isFaulted)
    let faultedChildren = children.filter(\.isFaulted)
    tally.withLock {
      $0.containersFaulted += faultedContainers.count
      $0.childrenFaulted += faultedChildren.count
      $0.operations += 1
    }
    func late(_ controller: any ViewController) async -> String {
      guard let fault = faults[ObjectIdentifier(controller)] else { return "" }
      // Emitted just after the flag is set; a fault from an earlier operation is not on it.
      _ = await within(.seconds(1)) { _ = await fault.value }
      fault.cancel()
      guard case .hookTimedOut(let hook, _)? = await fault.value else { return "" }
      return " (\(hook) timed out)"
    }
    var problems: [String] = []
    let stalled = "; the process stalled up to \(Int(takeStall().seconds * 1000)) ms meanwhile"
    for container in faultedContainers {
      problems.append(
        "container \(container.node.name) faulted\(await late(container)) though only its children's hooks were slow"
          + stalled)
    }
    for child in faultedChildren {
      problems.append(
        "\(child.node.name) faulted\(await late(child)) though each of its hooks took \(Int(slowHook.seconds * 1000)) ms"
          + stalled)
    }
    for fault in faults.values { fault.cancel() }
    return problems
  }

  /// Checked once the workload has ended.
  var workloadFindings: [Finding] {
    if root.isFaulted {
      return [Finding(category: .invariant, message: "the slow tree's root container Slow is faulted")]
    }
    let tally = tally.withLock { $0 }
    guard tally.operations > 0, tally.scopesOverDeadline + tally.transactionsOverDeadline == 0 else { return [] }
    return [
      Finding(
        category: .invariant,
        message:
          "slow children: no scope or container transaction outlasted the \(deadline) deadline: the check checked nothing"
      )
    ]
  }

  var summaryLines: [String] {
    let tally = tally.withLock { $0 }
    return [
      "slow         \(tally.scopesOverDeadline) scope bodies and \(tally.transactionsOverDeadline) container transactions outlasted the \(Int(deadline.seconds * 1000)) ms deadline on their children's hooks (longest \(Int(tally.longest.seconds * 1000)) ms); \(tally.containersFaulted) containers faulted, \(tally.childrenFaulted) children faulted"
    ]
  }

  var references: [WeakReference] {
    [WeakReference(window, label: "slow window"), WeakReference(root, label: "Slow")] + extras.withLock { $0 }
  }
}

/// `--fault slow-children`: builds, changes and takes down a container
/// whose children's hooks are slow (one such operation at a time), in one of
/// three ways:
/// 0. a custom container on the transaction scope: the root's scope installs
///    it (its own hooks, slow too, run inside the root's body), its own
///    scopes add three slow children and remove one, and the root's scope
///    removes it with the other two;
/// 1. a navigation controller with a slow delegate: installed by the root's
///    scope, which also pushes onto it; then pushes, pops and stack changes
///    from outside, each a transaction spent in the children's hooks;
/// 2. a split controller in a window of its own: shown, collapsed, its
///    secondary shown and its primary again, expanded, torn down.
/// No container (the root included) and no child may be faulted.
struct SlowChildrenKind: OperationKind {
  let name = OperationKindName.slowChildren
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let tree = world.slow, !tree.inFlight.withLock({ $0 }) else { return nil }
    return Operation(id: id, kind: name, targets: [], variant: rng.below(3))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    guard let tree = run.world.slow else { return .failed("no slow tree") }
    let claimed = tree.inFlight.withLock { busy in
      defer { busy = true }
      return !busy
    }
    guard claimed else { return .succeeded }
    defer { tree.inFlight.withLock { $0 = false } }
    let id = operation.id
    let problems: [String]
    switch operation.variant {
    case 0: problems = await scopedContainer(id, tree: tree)
    case 1: problems = await navigation(id, tree: tree)
    default: problems = await split(id, tree: tree)
    }
    for problem in problems {
      run.report(Finding(category: .invariant, message: problem, operations: [id]))
    }
    return problems.isEmpty ? .succeeded : .failed(problems[0])
  }

  /// Runs `steps`; returns what they threw, as a finding: every step is
  /// legal, so nothing is refused in a correct run.
  ///
  /// Whatever happened, no container and no child may be faulted.
  private func check(
    _ label: String, tree: SlowChildrenTree, containers: [any ViewController], children: [any ViewController],
    _ steps: () async throws -> Void
  ) async -> [String] {
    _ = tree.takeStall()
    // A controller faulted before (the root, by an earlier operation) was reported then.
    let containers = containers.filter { !$0.isFaulted }
    var faults: [ObjectIdentifier: Task<LifecycleEvent.Kind?, Never>] = [:]
    for controller in containers + children { faults[ObjectIdentifier(controller)] = firstFault(of: controller) }
    var problems: [String] = []
    do {
      try await steps()
    } catch {
      problems.append("\(label): \(error)")
    }
    return await tree.checkNoneFaulted(containers: containers, children: children, faults: faults) + problems
  }

  private func scopedContainer(_ id: Int, tree: SlowChildrenTree) async -> [String] {
    let root = tree.root
    let box = tree.make("SlowBox\(id)")
    let children = (0..<3).map { tree.make("SlowBox\(id).\($0)") }
    return await check(box.node.name, tree: tree, containers: [root, box], children: children) {
      try await tree.scope(root) {
        try await root.addChild(box)
        try await root.view.addSubview(await box.view)
        await box.didMove(toParent: root)
      }
      try await tree.scope(box) {
        for child in children {
          try await box.addChild(child)
          try await box.view.addSubview(await child.view)
          await child.didMove(toParent: box)
        }
      }
      try await tree.scope(box) {
        await children[0].willMove(toParent: nil)
        try await children[0].view.removeFromSuperview()
        try await children[0].removeFromParent()
      }
      try await tree.scope(root) {
        await box.willMove(toParent: nil)
        try await box.view.removeFromSuperview()
        try await box.removeFromParent()
      }
    }
  }

  private func navigation(_ id: Int, tree: SlowChildrenTree) async -> [String] {
    let root = tree.root
    let navigation = NavigationController(name: "SlowNav\(id)", transitionDuration: .milliseconds(1))
    tree.track(navigation, label: navigation.node.name)
    let delegate = SlowNavigationDelegate(pause: tree.slowHook)
    navigation.delegate = delegate
    defer { withExtendedLifetime(delegate) {} }
    let children = (0..<5).map { tree.make("SlowNav\(id).\($0)") }
    return await check(navigation.node.name, tree: tree, containers: [root, navigation], children: children) {
      try await navigation.setViewControllers([children[0]], animated: false)
      try await tree.scope(root) {
        try await root.addChild(navigation)
        try await root.view.addSubview(await navigation.view)
        await navigation.didMove(toParent: root)
        // Another container's queue: at once if it is free, else queued.
        _ = try await navigation.push(children[1], animated: true)
      }
      try await tree.timed { _ = try await navigation.push(children[2], animated: true) }
      try await tree.timed { _ = try await navigation.pop(animated: true) }
      try await tree.timed {
        _ = try await navigation.setViewControllers([children[0], children[3], children[4]], animated: true)
      }
      try await tree.timed { _ = try await navigation.popToRoot(animated: true) }
      try await tree.scope(root) {
        await navigation.willMove(toParent: nil)
        try await navigation.view.removeFromSuperview()
        try await navigation.removeFromParent()
      }
    }
  }

  private func split(_ id: Int, tree: SlowChildrenTree) async -> [String] {
    let window = Window(traits: TraitCollection(horizontalSizeClass: .regular), environment: tree.environment)
    let split = SplitViewController(name: "SlowSplit\(id)")
    tree.track(window, label: "slow split window of op \(id)")
    tree.track(split, label: split.node.name)
    let primary = tree.make("SlowSplit\(id).primary")
    let secondary = tree.make("SlowSplit\(id).secondary")
    return await check(split.node.name, tree: tree, containers: [split], children: [primary, secondary]) {
      try await split.setViewControllers(primary: primary, secondary: secondary)
      try await tree.timed { try await window.setRootViewController(split) }
      // The collapse and the expansion are requested by the split's own
      // trait hook and run after the trait change: the wait includes them.
      try await tree.timed {
        try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact))
        try await split.waitUntil(.idle)
      }
      try await tree.timed { _ = try await split.show(.secondary).value }
      try await tree.timed { _ = try await split.show(.primary).value }
      try await tree.timed {
        try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .regular))
        try await split.waitUntil(.idle)
      }
      try await tree.timed { try await window.tearDown() }
    }
  }
}
