import Containment
import ContainmentLocking
import ContainmentTestKit

/// A bare controller for the bulk trees: no recorder, no model. Counts the
/// live ones, so that the leak check sees every one released.
actor PlainController: ViewController {
  nonisolated let node: ControllerNode
  static let live = Locked(0)

  init(name: String, environment: ContainmentEnvironment) {
    node = ControllerNode(name: name)
    node.environment = environment
    Self.live.withLock { $0 += 1 }
  }

  deinit { PlainController.live.withLock { $0 -= 1 } }
}

/// A tree beside the modelled ones, in its own window: a navigation
/// controller that is pushed hundreds deep now and then, and a container
/// that takes hundreds of children now and then.
///
/// What runs there is checked by the invariants, the watchdog and the leak
/// check, not by the model.
final class BulkTrees: Sendable {
  let window: Window
  let root: PlainController
  let navigation: NavigationController
  let stackRoot: PlainController
  let wide: PlainController
  let environment: ContainmentEnvironment
  let deepGate = StackGate()
  let wideGate = StackGate()
  /// When the last deep stack and the last wide container were built.
  private let lastBig: Locked<(deep: ContinuousClock.Instant, wide: ContinuousClock.Instant)>
  /// At most one big build of each kind per this interval: the rest are small.
  static let bigInterval = Duration.seconds(2)
  /// The longest a big build goes on.
  static let buildBudget = Duration.seconds(1)

  init(environment: ContainmentEnvironment) {
    self.environment = environment
    window = Window(environment: environment)
    root = PlainController(name: "Bulk", environment: environment)
    navigation = NavigationController(name: "BulkNav", transitionDuration: .milliseconds(1))
    navigation.node.environment = environment
    stackRoot = PlainController(name: "BulkNav.root", environment: environment)
    wide = PlainController(name: "Wide", environment: environment)
    let now = ContinuousClock.now
    lastBig = Locked((now, now))
  }

  func make(_ name: String) -> PlainController { PlainController(name: name, environment: environment) }

  /// True (and the clock restarted) if a big build of this kind is due.
  func claimBig(deep: Bool) -> Bool {
    lastBig.withLock { last in
      let now = ContinuousClock.now
      let previous = deep ? last.deep : last.wide
      guard now - previous >= Self.bigInterval else { return false }
      if deep { last.deep = now } else { last.wide = now }
      return true
    }
  }

  func setUp() async throws {
    try await window.setRootViewController(root)
    for child in [navigation, wide] as [any ViewController] {
      try await root.addChild(child)
      try await root.view.addSubview(await child.view)
      await child.didMove(toParent: root)
    }
    try await navigation.setViewControllers([stackRoot], animated: false)
  }

  func tearDown() async {
    try? await window.tearDown()
    for controller in [root, navigation, stackRoot, wide] as [any ViewController] { await controller.tearDown() }
  }

  /// Weak references to the fixed bulk controllers, their views and the window.
  var references: [WeakReference] {
    var references = [WeakReference(window, label: "bulk window")]
    for controller in [root, navigation, stackRoot, wide] as [any ViewController] {
      references.append(WeakReference(controller, label: controller.node.name))
      if let view = controller.viewIfLoaded {
        references.append(WeakReference(view, label: "\(controller.node.name).view"))
      }
    }
    return references
  }
}

/// A navigation stack pushed deep (hundreds of controllers, every
/// `BulkTrees.bigInterval` at most; a few otherwise), then emptied back to
/// its root by `popToRoot`, `setViewControllers` or pops: while the other
/// trees run, its cost must not hold them up.
struct DeepStackKind: OperationKind {
  let name = OperationKindName.deepStack
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [], variant: rng.below(600))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let bulk = run.world.bulk
    guard await bulk.deepGate.enter(exclusive: true) else { return .cancelled }
    defer { bulk.deepGate.leave(exclusive: true) }
    let depth = bulk.claimBig(deep: true) ? 200 + operation.variant / 3 : 2 + operation.variant % 6
    let navigation = bulk.navigation
    var result = Outcome.succeeded
    do {
      // Time-boxed (a slow build, a sanitizer): the stack goes as deep as a second allows.
      let deadline = ContinuousClock.now + BulkTrees.buildBudget
      for level in 0..<depth where level < 2 || ContinuousClock.now < deadline {
        try await navigation.push(bulk.make("Deep\(level)"), animated: level == depth - 1)
        run.tick()
      }
      switch operation.variant % 3 {
      case 0:
        try await navigation.popToRoot(animated: true)
      case 1:
        try await navigation.setViewControllers([bulk.stackRoot], animated: false)
      default:
        for _ in 0..<min(navigation.viewControllers.count - 1, 4) { try await navigation.pop(animated: false) }
        try await navigation.popToRoot(animated: false)
      }
    } catch {
      result = outcome(of: error)
    }
    if navigation.viewControllers.count != 1 {
      if result == .succeeded {
        run.report(
          Finding(
            category: .invariant,
            message: "the bulk stack kept \(navigation.viewControllers.count) controllers after going back to its root")
        )
      }
      do { try await navigation.setViewControllers([bulk.stackRoot], animated: false) } catch {
        result = outcome(of: error)
      }
    }
    return result
  }
}

/// A container given hundreds of children (every `BulkTrees.bigInterval`
/// at most; a handful otherwise) from four tasks at once, half of them
/// installed the UIKit way, then emptied by one engine change, by
/// concurrent removals, or by an animated engine change to half of them
/// first.
struct WideContainerKind: OperationKind {
  let name = OperationKindName.wideContainer
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [], variant: rng.below(600))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let bulk = run.world.bulk
    guard await bulk.wideGate.enter(exclusive: true) else { return .cancelled }
    defer { bulk.wideGate.leave(exclusive: true) }
    let count = bulk.claimBig(deep: false) ? 200 + operation.variant / 3 : 4 + operation.variant % 12
    let wide = bulk.wide
    let children = (0..<count).map { bulk.make("Wide\($0)") }
    // Time-boxed like the deep stack: children not added in time are not added.
    let deadline = ContinuousClock.now + BulkTrees.buildBudget
    let failures = Locked<[Outcome]>([])
    func slices(_ body: @escaping @Sendable (Int, PlainController) async throws -> Void) async {
      await withTaskGroup(of: Void.self) { group in
        for slice in 0..<4 {
          group.addTask {
            for position in stride(from: slice, to: count, by: 4) {
              do { try await body(position, children[position]) } catch {
                failures.withLock { $0.append(outcome(of: error)) }
              }
              run.tick()
            }
          }
        }
      }
    }
    await slices { position, child in
      guard position < 4 || ContinuousClock.now < deadline else { return }
      try await wide.addChild(child)
      if position % 2 == 0 { try await wide.view.addSubview(await child.view) }
      await child.didMove(toParent: wide)
    }
    do {
      switch operation.variant % 3 {
      case 0:
        try await wide.changeChildren(ChildrenChange(children: [], shown: [any ViewController]()))
      case 1:
        await slices { _, child in
          guard child.parent != nil else { return }
          await child.willMove(toParent: nil)
          try await child.removeFromParent()
        }
      default:
        let half = children.prefix(count / 2).map { $0 as any ViewController }
        try await wide.changeChildren(
          ChildrenChange(children: half, shown: Array(half.prefix(1)), animated: true, duration: .milliseconds(1)))
        try await wide.changeChildren(ChildrenChange(children: [], shown: [any ViewController]()))
      }
    } catch {
      failures.withLock { $0.append(outcome(of: error)) }
    }
    let left = wide.children.count
    let failed = failures.withLock { $0 }
    if left != 0 {
      if failed.isEmpty {
        run.report(
          Finding(category: .invariant, message: "the wide container kept \(left) children after they all left"))
      }
      do { try await wide.changeChildren(ChildrenChange(children: [], shown: [any ViewController]())) } catch {}
    }
    return failed.first ?? .succeeded
  }
}

/// A parent released while its child lives and is being read and changed:
/// a fresh parent P with a child C (view installed) and a grandchild G; one
/// task drops the last reference to P while another reads C's back-links
/// (its parent, its view's superview), checks C's subtree and, in some
/// variants, removes C from P or adds a child to C.
///
/// Afterwards C must be parentless (P released, or C removed), its subtree
/// intact, and C free to join another container. The leak check then sees all
/// of them released.
struct OrphanKind: OperationKind {
  let name = OperationKindName.orphan
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [], variant: rng.below(3))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let bulk = run.world.bulk
    let child = bulk.make("Orphan")
    let grandchild = bulk.make("Orphan.child")
    let parent = Locked<PlainController?>(bulk.make("OrphanParent"))
    do {
      guard let p = parent.withLock({ $0 }) else { return .cancelled }
      try await p.addChild(child)
      try await p.view.addSubview(await child.view)
      await child.didMove(toParent: p)
      try await child.addChild(grandchild)
      await grandchild.didMove(toParent: child)
    } catch {
      return outcome(of: error)
    }
    let failures = Locked<[Outcome]>([])
    await withTaskGroup(of: Void.self) { group in
      // The last reference to the parent goes in this task.
      group.addTask { parent.withLock { $0 = nil } }
      group.addTask {
        for _ in 0..<8 {
          _ = child.parent
          _ = child.viewIfLoaded?.superview
          let violations = child.checkInvariants()
          if !violations.isEmpty {
            run.report(Finding(category: .invariant, message: "an orphan's subtree: \(violations)"))
          }
        }
        do {
          switch operation.variant {
          case 0:
            // Removed if the parent is still there; refused if it is gone.
            if child.parent != nil {
              await child.willMove(toParent: nil)
              try await child.removeFromParent()
            }
          case 1:
            let late = bulk.make("Orphan.late")
            try await child.addChild(late)
            await late.didMove(toParent: child)
          default:
            break
          }
        } catch ContainmentError.noParent {
          // The parent was released first.
        } catch {
          failures.withLock { $0.append(outcome(of: error)) }
        }
        run.tick()
      }
    }
    if let failed = failures.withLock({ $0.first }) { return failed }
    if child.parent != nil {
      run.report(Finding(category: .invariant, message: "an orphan still names a parent after it was released"))
    }
    // Free to join another container, with its subtree.
    let adopter = bulk.make("Orphan.adopter")
    do {
      try await adopter.addChild(child)
      try await adopter.view.addSubview(await child.view)
      await child.didMove(toParent: adopter)
    } catch {
      return outcome(of: error)
    }
    let violations = adopter.checkInvariants()
    if !violations.isEmpty || grandchild.parent !== child || child.parent !== adopter {
      run.report(Finding(category: .invariant, message: "an adopted orphan's tree is broken: \(violations)"))
    }
    return .succeeded
  }
}

/// A part of the bulk tree (a container with two children, under the wide
/// container, on screen) torn down while a change runs inside it (V3): from
/// outside, or from the wide container's own scope.
///
/// Whatever the interleaving, the part must have left the wide container,
/// every controller of it must be torn down, and no controller may hear a
/// hook after its `viewDidTearDown` (read from the part's tree stream, to
/// its end). The change inside may be refused with `tornDown`; it includes
/// hand-forwarded calls (`willMove`, `didMove`), which are no transactions.
struct TearDownPartKind: OperationKind {
  let name = OperationKindName.tearDownPart
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [], variant: rng.below(6))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let bulk = run.world.bulk
    guard await bulk.wideGate.enter(exclusive: false) else { return .cancelled }
    defer { bulk.wideGate.leave(exclusive: false) }
    let wide = bulk.wide
    let part = bulk.make("Part")
    let children = [bulk.make("Part.0"), bulk.make("Part.1")]
    let late = bulk.make("Part.late")
    do {
      for child in children {
        try await part.addChild(child)
        try await part.view.addSubview(await child.view)
        await child.didMove(toParent: part)
      }
      try await wide.addChild(part)
      try await wide.view.addSubview(await part.view)
      await part.didMove(toParent: wide)
    } catch {
      return outcome(of: error)
    }
    let stream = part.treeEvents()
    let refusals = Locked<[String]>([])
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          switch operation.variant % 3 {
          case 0:
            // A hand-forwarded call is no transaction: its hook checks the
            // stop on the child's actor.
            await children[0].willMove(toParent: nil)
            try await children[0].removeFromParent()
          case 1:
            try await part.addChild(late)
            await late.didMove(toParent: part)
          default:
            try await part.withTransaction { _ in try await part.addChild(late) }
          }
        } catch ContainmentError.tornDown, ContainmentError.noParent {
          // Torn down first: refused, nothing changed.
        } catch {
          refusals.withLock { $0.append("\(error)") }
        }
      }
      group.addTask {
        if operation.variant < 3 {
          await part.tearDown()
        } else {
          do { try await wide.withTransaction { _ in await part.tearDown() } } catch {
            refusals.withLock { $0.append("the wide container's scope: \(error)") }
          }
        }
      }
    }
    run.tick()
    var tornDown: Set<ControllerID> = []
    var afterStop: [String] = []
    for await event in stream {
      switch event.kind {
      case .viewDidTearDown:
        tornDown.insert(event.controller)
      case .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .willMove,
        .didMove, .viewDidLoad, .traitCollectionDidChange:
        if tornDown.contains(event.controller) { afterStop.append("\(event.name) \(event.kind)") }
      default:
        continue
      }
    }
    let summary = run.describe(operation)
    if !afterStop.isEmpty {
      run.report(Finding(category: .hookLog, message: "\(summary): hooks after viewDidTearDown: \(afterStop)"))
    }
    if part.parent != nil || wide.children.contains(where: { $0 === part }) {
      run.report(Finding(category: .invariant, message: "\(summary): a torn-down part is still in its container"))
    }
    // Those removed from the part before it was torn down are not in it.
    let members = [part] + (children + [late]).filter { $0.parent === part }
    for member in members where !member.isTornDown || !tornDown.contains(member.node.id) {
      run.report(Finding(category: .invariant, message: "\(summary): \(member.node.name) was not stopped"))
    }
    if let refused = refusals.withLock({ $0.first }) {
      run.report(Finding(category: .expectedError, message: "\(summary): unexpected \(refused)"))
    }
    return .succeeded
  }
}
