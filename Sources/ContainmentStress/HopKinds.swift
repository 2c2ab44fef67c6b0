import Containment
import ContainmentLocking
import ContainmentTestKit

/// Trees that merge into the main ones and split off again, and whose
/// leaves remove themselves while an ancestor hides them.
///
/// Each hop tree is a root `H` holding a container `C` (installed) holding
/// two leaves `X` (installed). A hop root is the root of one of the hop
/// windows, or detached, or grafted under an automatic container `A` of a
/// main tree (where the main kinds move it, transition it and hide it like
/// any child). Only the hop kinds change a hop tree's shape, one at a time
/// (`gate`); the main kinds run meanwhile.
struct HopTrees: Sendable {
  let windows: [Window]
  let roots: [Int]
  let containers: [Int]
  /// Per hop tree: the leaves of its container.
  let leaves: [[Int]]
  let gate = StackGate()

  init(trees: Int, environment: ContainmentEnvironment, make: (String) -> Int) {
    roots = (0..<trees).map { make("H\($0)") }
    containers = (0..<trees).map { make("C\($0)") }
    leaves = (0..<trees).map { tree in (0..<2).map { make("X\(tree).\($0)") } }
    windows = (0..<max(1, trees - 1)).map { _ in Window(environment: environment) }
  }

  var all: [Int] { roots + containers + leaves.flatMap { $0 } }
}

extension World {
  /// The hop trees (each whole; all but the last hop root in a window), the
  /// custom containers and the bulk trees.
  func setUpExtras() async throws {
    for tree in hop.roots.indices {
      let container = self[hop.containers[tree]]
      try await install(container, in: self[hop.roots[tree]])
      for leaf in hop.leaves[tree] { try await install(self[leaf], in: container) }
      if tree < hop.windows.count { try await hop.windows[tree].setRootViewController(self[hop.roots[tree]]) }
    }
    try await setUpScopedTrees()
    try await bulk.setUp()
    try await supervised?.setUp()
    try await slow?.setUp()
    try await setUpPresentations()
  }

  /// The hop trees as `model` has them, except their grafts (the main
  /// containers' children are built after this).
  func setUpHopTrees(from model: Model) async throws {
    for (tree, container) in hop.containers.enumerated() {
      for child in model.nodes[container].children {
        if model.nodes[child].installed {
          try await install(self[child], in: self[container])
        } else {
          try await self[container].addChild(self[child])
        }
      }
      guard model.nodes[container].parent == hop.roots[tree] else { continue }
      if model.nodes[container].installed {
        try await install(self[container], in: self[hop.roots[tree]])
      } else {
        try await self[hop.roots[tree]].addChild(self[container])
      }
    }
    for (window, root) in model.hopWindowRoots.enumerated() where window < hop.windows.count {
      if let root { try await hop.windows[window].setRootViewController(self[root]) }
    }
  }

  /// The hop window whose root is world index `root`, if any.
  func hopWindow(of root: Int) -> Int? {
    hop.windows.firstIndex { $0.rootViewController === self[root] }
  }

  /// Hop roots with no parent and no window.
  var freeHopRoots: [Int] {
    hop.roots.filter { self[$0].parent == nil && hopWindow(of: $0) == nil }
  }

  /// Hop tree `tree` whole again: its container installed in its root, its
  /// leaves in its container, each missing piece by a UIKit three-step add
  /// (or an install) in one transaction of the parent.
  func makeWhole(hopTree tree: Int, run: Run, operation: Int) async -> Outcome {
    var result = await attachFully(hop.containers[tree], in: hop.roots[tree], run: run, operation: operation)
    for leaf in hop.leaves[tree] {
      let outcome = await attachFully(leaf, in: hop.containers[tree], run: run, operation: operation)
      if outcome != .succeeded { result = outcome }
    }
    return result
  }

  /// `child` attached to `parent` with its view installed (nothing if it is).
  private func attachFully(_ child: Int, in parent: Int, run: Run, operation: Int) async -> Outcome {
    let (controller, container) = (self[child], self[parent])
    let attached = controller.parent === container
    guard !attached || controller.viewIfLoaded?.superview == nil else { return .succeeded }
    return await carrier(container, run: run, operation: operation) { steps in
      do {
        if controller.parent == nil {
          try await container.addChild(controller)
          steps.append(.attach(parent: parent, child: child))
        }
        guard controller.parent === container else { return }
        try await container.view.addSubview(await controller.view)
        steps.append(.addSubview(parent: parent, child: child))
        if !attached {
          await controller.didMove(toParent: container)
          steps.append(.didMove(child: child, parent: parent))
        }
      } catch {}
    }
  }

  /// A hop root grafted under a main tree's automatic container, by the
  /// UIKit three-step add in one transaction of that container (trees merge).
  func graft(_ root: Int, into container: Int, run: Run, operation: Int) async -> Outcome {
    let (controller, parent) = (self[root], self[container])
    return await carrier(parent, run: run, operation: operation) { steps in
      guard controller.parent == nil else { return }
      do {
        let handle = try await parent.addChild(controller)
        guard handle.isComplete else {
          // A main kind moved the root meanwhile: the add became a move, queued behind us.
          run.register(handle.id, [.attach(parent: container, child: root)], operation: operation)
          run.watch(handle)
          return
        }
        steps.append(.attach(parent: container, child: root))
        try await parent.view.addSubview(await controller.view)
        steps.append(.addSubview(parent: container, child: root))
        await controller.didMove(toParent: parent)
        steps.append(.didMove(child: root, parent: container))
      } catch {}
    }
  }

  /// `child` removed from `parent` the UIKit way (`willMove(nil)`, view
  /// removed, `removeFromParent`) in one transaction of `parent`; `armed`,
  /// if given, removes itself when it hides meanwhile.
  func detach(
    _ child: Int, from parent: Int, arming armed: Int?, run: Run, operation: Int,
    pending: Locked<TransactionHandle<Void>?>
  )
    async -> Outcome
  {
    let (controller, container) = (self[child], self[parent])
    return await carrier(container, run: run, operation: operation) { steps in
      guard controller.parent === container else { return }
      if let armed { self.arm(armed, steps: steps, run: run, pending: pending) }
      await controller.willMove(toParent: nil)
      steps.append(.willMove(child: child, parent: nil))
      do {
        try await controller.view.removeFromSuperview()
        steps.append(.removeFromSuperview(child: child))
        try await controller.removeFromParent()
        steps.append(.remove(parent: parent, child: child))
      } catch {}
      if let armed { self.disarm(armed, steps: steps) }
    }
  }

  /// `child`'s view removed from `parent`'s in one transaction of `parent`
  /// (an ancestor of `armed` hides it).
  func uninstallView(
    _ child: Int, of parent: Int, arming armed: Int, run: Run, operation: Int, pending: Locked<TransactionHandle<Void>?>
  )
    async -> Outcome
  {
    let (controller, container) = (self[child], self[parent])
    return await carrier(container, run: run, operation: operation) { steps in
      guard controller.parent === container else { return }
      self.arm(armed, steps: steps, run: run, pending: pending)
      do {
        try await controller.view.removeFromSuperview()
        steps.append(.removeFromSuperview(child: child))
      } catch {}
      self.disarm(armed, steps: steps)
    }
  }

  /// Hop window `window`'s root set to `root` (nil: none); `armed`, if
  /// given, removes itself when the old root's tree hides it.
  func setHopRoot(
    window: Int, to root: Int?, animated: Bool, arming armed: Int?, run: Run, operation: Int,
    pending: Locked<TransactionHandle<Void>?>
  )
    async -> Outcome
  {
    let steps = StepLog()
    // Safe outside the transaction: nothing but the hop kinds (one at a
    // time) reaches a tree whose root is a window's.
    if let armed { self.arm(armed, steps: steps, run: run, pending: pending) }
    defer { if let armed { self[armed].armedDisappear.withLock { $0 = nil } } }
    do {
      let handle = try await hop.windows[window].setRootViewController(root.map { self[$0] }, animated: animated)
      run.register(
        handle.id,
        steps.all + [.setRoot(window: window, root: root, animated: animated)]
          + (armed.map { [.disarm(child: $0)] } ?? []), operation: operation)
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }

  /// Arms `leaf` to remove itself in its next `viewWillDisappear`, the way
  /// user code does: `await willMove(toParent: nil)`, then
  /// `try await removeFromParent()`, which is queued behind the running
  /// transaction (R2).
  ///
  /// The queued request's handle goes to `pending` (and `run.watch`); its
  /// transaction is registered as a nested operation.
  private func arm(_ leaf: Int, steps: StepLog, run: Run, pending: Locked<TransactionHandle<Void>?>) {
    let controller = self[leaf]
    steps.append(.arm(child: leaf))
    controller.armedDisappear.withLock {
      $0 = {
        let start = run.now()
        let nested = Operation(id: run.nextOperationID(), kind: .selfRemoval, targets: [leaf])
        // From its own actor, as a hook's code would.
        await controller.announceLeaving()
        var result = Outcome.succeeded
        do {
          let handle = try await controller.removeFromParent()
          run.register(handle.id, [.remove(parent: -1, child: leaf)], operation: nested.id)
          run.watch(handle)
          pending.withLock { $0 = handle }
        } catch {
          result = outcome(of: error)
        }
        run.record(
          OperationRecord(
            operation: nested, summary: "from viewWillDisappear: willMove(nil), \(run.describe(nested))", start: start,
            end: run.now(),
            outcome: result, nested: true))
      }
    }
  }

  /// Ends an arming inside the transaction that armed (a no-op if it fired).
  private func disarm(_ leaf: Int, steps: StepLog) {
    self[leaf].armedDisappear.withLock { $0 = nil }
    steps.append(.disarm(child: leaf))
  }
}

/// Waits until the removal an armed leaf queued (if any) has run: the hop
/// kinds leave nothing pending behind them.
///
/// The wait is not cancelled with the operation (the request's handle decides
/// when it ends).
func awaitPending(_ pending: Locked<TransactionHandle<Void>?>) async {
  guard let handle = pending.withLock({ $0 }) else { return }
  await Task {
    // Its outcome is checked through `run.watch`.
    do { _ = try await handle.value } catch {}
  }.value
}

/// A leaf of a hop tree removes itself (`willMove(toParent: nil)`, then
/// `removeFromParent()`, queued) from its `viewWillDisappear` while an
/// ancestor hides it: the hop window's root set to nil or to another tree,
/// the leaf's container's view uninstalled, the container removed from the
/// hop root, or the hop root removed from the main container it is grafted
/// under.
///
/// The model replays the `willMove(nil)` inside the ancestor's transaction and
/// the removal after it, `didMove(nil)` last (R2, C4).
struct SelfRemovalKind: OperationKind {
  let name = OperationKindName.selfRemoval
  let weight = 2

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.hop.roots.count)
    guard let leaf = rng.pick(world.hop.leaves[tree]), let container = rng.pick(world.autoContainers) else {
      return nil
    }
    return Operation(id: id, kind: name, targets: [world.hop.roots[tree], leaf, container], variant: rng.below(8))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    guard await world.hop.gate.enter(exclusive: true) else { return .cancelled }
    defer { world.hop.gate.leave(exclusive: true) }
    let (root, leaf, graftTarget) = (operation.targets[0], operation.targets[1], operation.targets[2])
    guard let tree = world.hop.roots.firstIndex(of: root) else { preconditionFailure("#\(root) is not a hop root") }
    let container = world.hop.containers[tree]
    let id = operation.id
    let variant = operation.variant
    // A detached tree is put somewhere visible first (a free window, or grafted).
    if world.freeHopRoots.contains(root) {
      if let window = world.hop.windows.indices.first(where: { world.hop.windows[$0].rootViewController == nil }),
        variant % 2 == 0
      {
        let none = Locked<TransactionHandle<Void>?>(nil)
        _ = await world.setHopRoot(
          window: window, to: root, animated: false, arming: nil, run: run, operation: id, pending: none)
      } else {
        _ = await world.graft(root, into: graftTarget, run: run, operation: id)
      }
    }
    var result = await world.makeWhole(hopTree: tree, run: run, operation: id)
    let pending = Locked<TransactionHandle<Void>?>(nil)
    let hide: Outcome
    switch (world.hopWindow(of: root), world[root].parent as? StressController, variant % 4) {
    case (let window?, _, 0):
      hide = await world.setHopRoot(
        window: window, to: nil, animated: variant >= 4, arming: leaf, run: run, operation: id, pending: pending)
    case (let window?, _, 1):
      hide = await world.setHopRoot(
        window: window, to: world.freeHopRoots.first, animated: variant >= 4, arming: leaf, run: run, operation: id,
        pending: pending)
    case (_, let parent?, 0), (_, let parent?, 1):
      hide = await world.detach(root, from: parent.index, arming: leaf, run: run, operation: id, pending: pending)
    case (_, _, 2):
      hide = await world.uninstallView(container, of: root, arming: leaf, run: run, operation: id, pending: pending)
    default:
      hide = await world.detach(container, from: root, arming: leaf, run: run, operation: id, pending: pending)
    }
    await awaitPending(pending)
    if hide != .succeeded { result = hide }
    return result
  }
}

/// Trees merge and split while the others run: a hop root taken out of its
/// window (root set to nil, or replaced by another hop root), grafted under
/// a main tree's container, moved from one main tree to another (a move
/// across trees, C6), removed from it the UIKit way, made a window's
/// root again.
struct RehomeKind: OperationKind {
  let name = OperationKindName.rehome
  let weight = 2

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let root = rng.pick(world.hop.roots), let container = rng.pick(world.autoContainers) else { return nil }
    return Operation(id: id, kind: name, targets: [root, container], variant: rng.below(6))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    guard await world.hop.gate.enter(exclusive: true) else { return .cancelled }
    defer { world.hop.gate.leave(exclusive: true) }
    let (root, target) = (operation.targets[0], operation.targets[1])
    let id = operation.id
    let variant = operation.variant
    let none = Locked<TransactionHandle<Void>?>(nil)
    if variant == 5 {
      guard let tree = world.hop.roots.firstIndex(of: root) else { preconditionFailure("#\(root) is not a hop root") }
      _ = await world.makeWhole(hopTree: tree, run: run, operation: id)
    }
    let emptyWindow = world.hop.windows.indices.first { world.hop.windows[$0].rootViewController == nil }
    if let window = world.hopWindow(of: root) {
      let replacement = variant % 2 == 0 ? nil : world.freeHopRoots.first
      return await world.setHopRoot(
        window: window, to: replacement, animated: variant >= 3, arming: nil, run: run, operation: id, pending: none)
    }
    if let parent = world[root].parent as? StressController {
      if variant % 3 == 0, parent.index != target {
        // Straight into another main tree: a move across trees.
        return await addChild(world[root], to: world[target], run: run, operation: id)
      }
      let outcome = await world.detach(root, from: parent.index, arming: nil, run: run, operation: id, pending: none)
      guard outcome == .succeeded, variant % 2 == 1, let emptyWindow, world[root].parent == nil else { return outcome }
      return await world.setHopRoot(
        window: emptyWindow, to: root, animated: variant >= 3, arming: nil, run: run, operation: id, pending: none)
    }
    if variant % 2 == 0, let emptyWindow {
      return await world.setHopRoot(
        window: emptyWindow, to: root, animated: variant >= 3, arming: nil, run: run, operation: id, pending: none)
    }
    return await world.graft(root, into: target, run: run, operation: id)
  }
}
