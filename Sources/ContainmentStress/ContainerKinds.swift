import Containment
import ContainmentLocking
import ContainmentTestKit

// Built-in containers (§5, CONTAINERS.md): each tree's root also holds a
// `NavigationController`, a `TabBarController` and a `SplitViewController`.
// Stack leaves (`V`) move between the navigation stacks of every tree; tab
// leaves (`T`) join and leave their tree's tab controller (in any order); the
// split's columns (`P`, `Q`) are fixed, and the window's trait flips
// collapse and expand it.
//
// All of their transactions are replayed on the model like the others:
// navigation (`Model.changeStack`, `Model.interactivePop`: N2–N5, N7),
// tabs (`Model.switchTab`: B2), and the split (`Model.layoutSplit`: S1, S2).
// The split's transactions mostly have no handle: a trait flip is a window
// transaction, and the collapse or expansion is a transaction the split
// starts from its `traitCollectionDidChange`; the checks recognise both by
// their events (`Checks.recogniseSplit`) and date each layout against the
// window's trait changes (`Checks.isCompact`). Trait changes are replayed on
// the split columns only (elsewhere they change nothing the model holds).
// Expected errors of container misuse are checked where the outcome is
// certain.

extension World {
  /// Installs the three containers under every tree's root and fills them.
  func setUpContainers() async throws {
    for tree in 0..<windows.count {
      let root = self[roots[tree]]
      for container in [navigations[tree], tabs[tree], splits[tree]] as [any ViewController] {
        try await root.addChild(container)
        try await root.view.addSubview(await container.view)
        await container.didMove(toParent: root)
      }
      try await navigations[tree].setViewControllers([self[stackLeaves[tree * 3]]], animated: false)
      try await tabs[tree].setViewControllers(tabLeaves[tree].map { self[$0] }, selectedIndex: 0)
      try await splits[tree].setViewControllers(
        primary: self[splitColumns[tree].primary], secondary: self[splitColumns[tree].secondary])
    }
  }

  /// Waits until no split layout is pending: a trait flip whose split was busy
  /// leaves its layout queued, and a quiescent snapshot must come after it.
  /// (Setting the columns a split has is a transaction that changes nothing,
  /// queued behind everything before it.)
  func drainSplits() async {
    for (tree, split) in splits.enumerated() {
      _ = try? await split.setViewControllers(
        primary: self[splitColumns[tree].primary], secondary: self[splitColumns[tree].secondary])
    }
  }

  /// The tree whose root is world index `root`.
  func tree(ofRoot root: Int) -> Int { roots.firstIndex(of: root) ?? 0 }
}

/// Why `setStack`, `setTabs` and `engine` run alone on their container: a
/// reorder that keeps the set and the top (`[A, B, C]` → `[B, A, C]`), the
/// tabs and the selected one, or a custom container's children and the shown
/// ones, changes the container without a single event, so the
/// replay could not place it among concurrent requests on the same container
/// (a later `pop` or `select(i)` would reveal a different controller).
///
/// Under the gate nothing else runs on that container between the moment the
/// operation enters and the moment its request returns, so the replay places
/// such an eventless request by time among the others (`Checks.replay`,
/// `RegisteredTransaction.window`); its effect shows in what later requests
/// reveal and in the final stacks and tabs. Every other eventless container
/// request (popTo the top, popToRoot of a root, re-selecting the selected tab,
/// `show` while expanded) changes nothing the model holds, so the replay may
/// skip it.
final class StackGate: Sendable {
  private let state = Locked((shared: 0, exclusive: false, writersWaiting: 0))

  /// False if the task was cancelled while waiting (then it did not enter).
  func enter(exclusive: Bool) async -> Bool {
    if exclusive { state.withLock { $0.writersWaiting += 1 } }
    defer { if exclusive { state.withLock { $0.writersWaiting -= 1 } } }
    while true {
      let entered = state.withLock { gate -> Bool in
        if gate.exclusive { return false }
        if exclusive {
          guard gate.shared == 0 else { return false }
          gate.exclusive = true
        } else {
          guard gate.writersWaiting == 0 else { return false }
          gate.shared += 1
        }
        return true
      }
      if entered { return true }
      if Task.isCancelled { return false }
      try? await Task.sleep(for: .microseconds(100))
    }
  }

  func leave(exclusive: Bool) {
    state.withLock { gate in
      if exclusive { gate.exclusive = false } else { gate.shared -= 1 }
    }
  }
}

/// Runs `body` inside tree `tree`'s stack gate (`tabs`: its tab gate).
private func gated(_ run: Run, tree: Int, tabs: Bool = false, exclusive: Bool, _ body: () async -> Outcome) async
  -> Outcome
{
  let gate = tabs ? run.world.tabGates[tree] : run.world.stackGates[tree]
  guard await gate.enter(exclusive: exclusive) else { return .cancelled }
  defer { gate.leave(exclusive: exclusive) }
  return await body()
}

/// Reports a misuse that did not throw the error §8 / CONTAINERS.md name.
private func expect(
  _ run: Run, _ operation: Operation, _ what: String, _ matches: (ContainmentError) -> Bool,
  _ body: () async throws -> Void
) async -> Outcome {
  do {
    try await body()
    run.report(
      Finding(
        category: .expectedError, message: "\(run.describe(operation)): \(what) was not thrown",
        operations: [operation.id]))
    return .succeeded
  } catch let error as ContainmentError {
    if !matches(error) {
      run.report(
        Finding(
          category: .expectedError, message: "\(run.describe(operation)): expected \(what), got \(error)",
          operations: [operation.id]))
    }
    return .failed("\(error)")
  } catch {
    return outcome(of: error)
  }
}

/// `push` of a stack leaf (variant 1: animated; variant 2: push a tab leaf,
/// which has another kind of parent: `alreadyChild`, never a move; variant 3:
/// the pushed leaf pops it again from its `willMove` hook).
struct PushKind: OperationKind {
  let name = OperationKindName.push
  let weight = 4

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.windows.count)
    if rng.chance(0.1) {
      guard let leaf = rng.pick(world.tabLeaves[rng.below(world.windows.count)]) else { return nil }
      return Operation(id: id, kind: name, targets: [world.roots[tree], leaf], variant: 2)
    }
    let free = world.stackLeaves.filter { world[$0].parent == nil }
    guard let leaf = rng.pick(free.isEmpty ? world.stackLeaves : free) else { return nil }
    return Operation(
      id: id, kind: name, targets: [world.roots[tree], leaf], variant: rng.chance(0.15) ? 3 : rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    await gated(run, tree: run.world.tree(ofRoot: operation.targets[0]), exclusive: false) {
      operation.variant == 3 ? await pushThenPopFromHook(operation, run: run) : await stackRequest(operation, run: run)
    }
  }

  /// Variant 3: the pushed leaf's `willMove(toParent: nav)` hook asks the same
  /// stack to `pop` (a nested request, R2: queued behind the push, a
  /// pending handle).
  ///
  /// The operation waits for the pop before it leaves the stack gate, and the
  /// hook acts only while the operation runs and only for this stack, so no
  /// request on the stack escapes the gate.
  private func pushThenPopFromHook(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let tree = world.tree(ofRoot: operation.targets[0])
    let navigation = world.navigations[tree]
    let leaf = world[operation.targets[1]]
    let nested = Locked<TransactionHandle<any ViewController>?>(nil)
    let active = Locked(true)
    let navigationID = navigation.node.id
    leaf.armed.withLock {
      $0 = { parent in
        guard active.withLock({ $0 }), parent.node.id == navigationID, nested.withLock({ $0 == nil }) else { return }
        let pop = Operation(id: run.nextOperationID(), kind: .pop, targets: [operation.targets[0]])
        let start = run.now()
        var result = Outcome.succeeded
        do {
          let handle = try await navigation.pop(animated: false)
          run.register(handle.id, [.navigation(tree: tree, change: .pop, animated: false)], operation: operation.id)
          nested.withLock { $0 = handle }
        } catch {
          result = outcome(of: error)
        }
        run.record(
          OperationRecord(
            operation: pop, summary: "from a hook: \(run.describe(pop))", start: start, end: run.now(), outcome: result,
            nested: true))
      }
    }
    var result = Outcome.succeeded
    do {
      let handle = try await navigation.push(leaf, animated: false)
      run.register(
        handle.id, [.navigation(tree: tree, change: .push(operation.targets[1]), animated: false)],
        operation: operation.id)
      _ = try await handle.value
    } catch {
      result = outcome(of: error)
    }
    active.withLock { $0 = false }
    leaf.armed.withLock { $0 = nil }
    if let handle = nested.withLock({ $0 }) {
      // Not cancellable: the pop must be over before the gate is left.
      await Task { _ = try? await handle.value }.value
    }
    return result
  }

  private func stackRequest(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let navigation = world.navigations[world.tree(ofRoot: operation.targets[0])]
    let leaf = world[operation.targets[1]]
    if operation.variant == 2 {
      // A tab leaf may have left its tabs (`setTabs`): push one that is a tab
      // now, and keep it one (the tab gate) until the push is refused.
      let tree = world.tabLeaves.firstIndex { $0.contains(operation.targets[1]) } ?? 0
      return await gated(run, tree: tree, tabs: true, exclusive: false) {
        let tab: any ViewController =
          leaf.parent is TabBarController ? leaf : world.tabs[tree].viewControllers.first ?? leaf
        return await expect(run, operation, "alreadyChild", { if case .alreadyChild = $0 { true } else { false } }) {
          _ = try await navigation.push(tab, animated: false)
        }
      }
    }
    do {
      let handle = try await navigation.push(leaf, animated: operation.variant == 1)
      run.register(
        handle.id,
        [
          .navigation(
            tree: world.tree(ofRoot: operation.targets[0]), change: .push(operation.targets[1]),
            animated: operation.variant == 1)
        ], operation: operation.id)
      _ = try await handle.value
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// `pop`, `popToRoot` (variant 1: animated).
struct PopKind: OperationKind {
  let name: OperationKindName
  let weight = 3

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [world.roots[rng.below(world.windows.count)]], variant: rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    await gated(run, tree: run.world.tree(ofRoot: operation.targets[0]), exclusive: false) {
      await stackRequest(operation, run: run)
    }
  }

  private func stackRequest(_ operation: Operation, run: Run) async -> Outcome {
    let navigation = run.world.navigations[run.world.tree(ofRoot: operation.targets[0])]
    do {
      let tree = run.world.tree(ofRoot: operation.targets[0])
      let animated = operation.variant == 1
      if name == .pop {
        let handle = try await navigation.pop(animated: animated)
        run.register(handle.id, [.navigation(tree: tree, change: .pop, animated: animated)], operation: operation.id)
        _ = try await handle.value
      } else {
        let handle = try await navigation.popToRoot(animated: animated)
        run.register(
          handle.id, [.navigation(tree: tree, change: .popToRoot, animated: animated)], operation: operation.id)
        _ = try await handle.value
      }
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// `popTo` a controller on the stack (or, variant 2, a stranger: `notOnStack`).
struct PopToKind: OperationKind {
  let name = OperationKindName.popTo
  let weight = 3

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.windows.count)
    if rng.chance(0.1) {
      guard let stranger = rng.pick(world.strangers) else { return nil }
      return Operation(id: id, kind: name, targets: [world.roots[tree], stranger], variant: 2)
    }
    let stack = world.navigations[tree].viewControllers.compactMap { world.indexByID[$0.node.id] }
    guard let leaf = rng.pick(stack.isEmpty ? world.stackLeaves : stack) else { return nil }
    return Operation(id: id, kind: name, targets: [world.roots[tree], leaf], variant: rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    await gated(run, tree: run.world.tree(ofRoot: operation.targets[0]), exclusive: false) {
      await stackRequest(operation, run: run)
    }
  }

  private func stackRequest(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let navigation = world.navigations[world.tree(ofRoot: operation.targets[0])]
    let leaf = world[operation.targets[1]]
    if operation.variant == 2 {
      return await expect(run, operation, "notOnStack", { if case .notOnStack = $0 { true } else { false } }) {
        _ = try await navigation.popTo(leaf, animated: false)
      }
    }
    do {
      let handle = try await navigation.popTo(leaf, animated: operation.variant == 1)
      run.register(
        handle.id,
        [
          .navigation(
            tree: world.tree(ofRoot: operation.targets[0]), change: .popTo(operation.targets[1]),
            animated: operation.variant == 1)
        ], operation: operation.id)
      _ = try await handle.value
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// `setViewControllers` on a stack: 1–3 stack leaves, in any order, some of
/// them perhaps on another tree's stack (`alreadyOnStack`).
///
/// Variant 1: animated.
struct SetStackKind: OperationKind {
  let name = OperationKindName.setStack
  let weight = 3

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.windows.count)
    let own = world.navigations[tree].viewControllers.compactMap { world.indexByID[$0.node.id] }
    if own.count > 1, rng.chance(0.25) {
      // A reorder of the stack as it reads now: eventless if the top stays.
      var list = own
      for position in list.indices.dropLast() { list.swapAt(position, position + rng.below(list.count - position)) }
      if rng.chance(0.5), let top = own.last, let at = list.firstIndex(of: top) { list.swapAt(at, list.count - 1) }
      return Operation(id: id, kind: name, targets: [world.roots[tree]] + list, variant: rng.below(2))
    }
    let candidates = own + world.stackLeaves.filter { world[$0].parent == nil }
    var chosen: [Int] = []
    for _ in 0..<(1 + rng.below(3)) {
      guard let leaf = rng.pick(candidates.isEmpty || rng.chance(0.05) ? world.stackLeaves : candidates) else { break }
      if !chosen.contains(leaf) { chosen.append(leaf) }
    }
    guard !chosen.isEmpty else { return nil }
    return Operation(id: id, kind: name, targets: [world.roots[tree]] + chosen, variant: rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let navigation = world.navigations[world.tree(ofRoot: operation.targets[0])]
    let tree = world.tree(ofRoot: operation.targets[0])
    return await gated(run, tree: tree, exclusive: true) {
      let list = Array(operation.targets.dropFirst())
      let entered = run.now()
      do {
        // From outside any transaction the request runs to its end before it returns.
        let handle = try await navigation.setViewControllers(list.map { world[$0] }, animated: operation.variant == 1)
        run.register(
          handle.id, [.navigation(tree: tree, change: .set(list), animated: operation.variant == 1)],
          operation: operation.id,
          window: entered...run.now())
        _ = try await handle.value
        return .succeeded
      } catch {
        return outcome(of: error)
      }
    }
  }
}

/// A tab selection: `select(_:)` (the user path, `name == .selectTab`) or
/// `setSelectedIndex(_:)` (the code path); variant 1: an index out of range
/// (`tabIndexOutOfRange`).
struct SelectTabKind: OperationKind {
  let name: OperationKindName
  let weight = 4

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.windows.count)
    let outOfRange = rng.chance(0.1)
    let index = outOfRange ? world.tabLeaves[tree].count + rng.below(2) : rng.below(world.tabLeaves[tree].count)
    // targets: the tree's root, then the index as a plain number (not a controller).
    return Operation(id: id, kind: name, targets: [world.roots[tree]], variant: outOfRange ? 1 + 2 * index : 2 * index)
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    await gated(run, tree: run.world.tree(ofRoot: operation.targets[0]), tabs: true, exclusive: false) {
      await tabRequest(operation, run: run)
    }
  }

  private func tabRequest(_ operation: Operation, run: Run) async -> Outcome {
    let tabs = run.world.tabs[run.world.tree(ofRoot: operation.targets[0])]
    let index = operation.variant / 2
    if operation.variant % 2 == 1 {
      return await expect(
        run, operation, "tabIndexOutOfRange", { if case .tabIndexOutOfRange = $0 { true } else { false } }
      ) {
        if name == .selectTab { _ = try await tabs.select(index) } else { _ = try await tabs.setSelectedIndex(index) }
      }
    }
    do {
      let step = ModelStep.tabs(tree: run.world.tree(ofRoot: operation.targets[0]), change: .select(index: index))
      if name == .selectTab {
        let handle = try await tabs.select(index)
        run.register(handle.id, [step], operation: operation.id)
        _ = try await handle.value
      } else {
        let handle = try await tabs.setSelectedIndex(index)
        run.register(handle.id, [step], operation: operation.id)
        _ = try await handle.value
      }
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// `setViewControllers(_:selectedIndex:)` on a tab controller: 1–3 of the
/// tree's tab leaves in any order (tabs leave and join; a leaf that left is
/// parentless until it joins again), with any selected index.
///
/// Runs alone on its tab controller (see `StackGate`): a reorder that keeps the
/// selected tab has no event.
struct SetTabsKind: OperationKind {
  let name = OperationKindName.setTabs
  let weight = 2

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.windows.count)
    var leaves = world.tabLeaves[tree]
    for position in leaves.indices.dropLast() { leaves.swapAt(position, position + rng.below(leaves.count - position)) }
    let count = rng.chance(0.5) ? leaves.count : 1 + rng.below(leaves.count)
    return Operation(id: id, kind: name, targets: [world.roots[tree]] + leaves.prefix(count), variant: rng.below(count))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let tree = world.tree(ofRoot: operation.targets[0])
    let list = Array(operation.targets.dropFirst())
    return await gated(run, tree: tree, tabs: true, exclusive: true) {
      let entered = run.now()
      do {
        let handle = try await world.tabs[tree].setViewControllers(
          list.map { world[$0] }, selectedIndex: operation.variant)
        run.register(
          handle.id, [.tabs(tree: tree, change: .set(tabs: list, selected: operation.variant))],
          operation: operation.id,
          window: entered...run.now())
        _ = try await handle.value
        return .succeeded
      } catch {
        return outcome(of: error)
      }
    }
  }
}

/// `window.setTraitCollection`: compact (variant 0) collapses the tree's
/// split, regular (variant 1) expands it (S1–S2, D3).
struct TraitFlipKind: OperationKind {
  let name = OperationKindName.traitFlip
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    // A window transaction: exclusive with every transaction of its tree.
    Operation(id: id, kind: name, targets: [world.roots[rng.below(world.windows.count)]], variant: rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let window = run.world.windows[run.world.tree(ofRoot: operation.targets[0])]
    do {
      try await window.setTraitCollection(
        TraitCollection(horizontalSizeClass: operation.variant == 0 ? .compact : .regular))
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// `split.show(.primary / .secondary)` (variant 0 / 1): push-like while collapsed.
struct ShowColumnKind: OperationKind {
  let name = OperationKindName.showColumn
  let weight = 2

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [world.roots[rng.below(world.windows.count)]], variant: rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let tree = run.world.tree(ofRoot: operation.targets[0])
    let column: SplitColumn = operation.variant == 0 ? .primary : .secondary
    do {
      let handle = try await run.world.splits[tree].show(column)
      run.register(handle.id, [.split(tree: tree, showing: column, compact: nil)], operation: operation.id)
      _ = try await handle.value
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// `interactivePop` (N7): the driver reports some progress and finishes
/// (variant 0), cancels (variant 1) or throws (variant 2: rolled back like a
/// cancel, the error rethrown); variant 3 finishes after asking, from inside
/// the driver, to push `targets[1]` (a nested request, R2: queued behind
/// the pop; awaiting its handle there must throw `awaitingOwnTransaction`).
///
/// The handle of a throwing gesture is never returned, so that one is
/// registered without its id (`UnidentifiedRequest`).
struct InteractivePopKind: OperationKind {
  let name = OperationKindName.interactivePop
  let weight = 3

  struct DriverGaveUp: Error {}

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    // Mostly a stack that can be popped as it reads now (sometimes any: `cannotPopRoot`).
    let deep = (0..<world.windows.count).filter { world.navigations[$0].viewControllers.count >= 2 }
    let root = world.roots[
      rng.chance(0.8) ? rng.pick(deep) ?? rng.below(world.windows.count) : rng.below(world.windows.count)]
    if rng.chance(0.15) {
      let free = world.stackLeaves.filter { world[$0].parent == nil }
      guard let leaf = rng.pick(free.isEmpty ? world.stackLeaves : free) else { return nil }
      return Operation(id: id, kind: name, targets: [root, leaf], variant: 3)
    }
    return Operation(id: id, kind: name, targets: [root], variant: rng.chance(0.2) ? 2 : rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let tree = world.tree(ofRoot: operation.targets[0])
    return await gated(run, tree: tree, exclusive: false) {
      let start = run.now()
      let popping = Locked<Int?>(nil)
      let nested = Locked<TransactionHandle<TransitionOutcome>?>(nil)
      let variant = operation.variant
      let fraction = Double(operation.id % 10) / 10
      let step = ModelStep.navigation(
        tree: tree, change: .interactivePop(finish: variant == 0 || variant == 3), animated: true)
      var result = Outcome.succeeded
      do {
        let handle = try await world.navigations[tree].interactivePop { progress in
          popping.withLock { $0 = world.indexByID[progress.popping.node.id] }
          progress.update(fraction / 2)
          if variant == 3 { await pushFromDriver(operation, tree: tree, run: run, nested: nested) }
          await Task.yield()
          progress.update(fraction)
          if variant == 2 { throw DriverGaveUp() }
          return variant == 1 ? .cancel : .finish
        }
        run.register(handle.id, [step], operation: operation.id)
        _ = try await handle.value
      } catch {
        if error is DriverGaveUp, let first = popping.withLock({ $0 }) {
          run.unidentified.withLock {
            $0.append(
              UnidentifiedRequest(steps: [step], operation: operation.id, first: first, start: start, end: run.now()))
          }
        }
        result = outcome(of: error)
      }
      if let handle = nested.withLock({ $0 }) {
        // Not cancellable: the push must be over before the gate is left.
        await Task { _ = try? await handle.value }.value
      }
      return result
    }
  }

  /// Inside the driver (a hook of the pop's transaction): push `targets[1]`
  /// on the same stack, then check that awaiting it here is refused.
  private func pushFromDriver(
    _ operation: Operation, tree: Int, run: Run, nested: Locked<TransactionHandle<TransitionOutcome>?>
  ) async {
    let leaf = operation.targets[1]
    let push = Operation(id: run.nextOperationID(), kind: .push, targets: [operation.targets[0], leaf])
    let begin = run.now()
    var result = Outcome.succeeded
    do {
      let handle = try await run.world.navigations[tree].push(run.world[leaf], animated: false)
      run.register(handle.id, [.navigation(tree: tree, change: .push(leaf), animated: false)], operation: operation.id)
      nested.withLock { $0 = handle }
      do {
        _ = try await handle.value
        run.report(
          Finding(
            category: .expectedError,
            message: "\(run.describe(operation)): awaiting a push queued behind the running pop returned (R2)",
            operations: [operation.id]))
      } catch let error as ContainmentError {
        if case .awaitingOwnTransaction = error {
        } else {
          run.report(
            Finding(
              category: .expectedError,
              message:
                "\(run.describe(operation)): awaiting a push queued behind the running pop threw \(error), not awaitingOwnTransaction",
              operations: [operation.id]))
        }
      } catch {
        run.report(
          Finding(
            category: .expectedError,
            message:
              "\(run.describe(operation)): awaiting a push queued behind the running pop threw \(error), not awaitingOwnTransaction",
            operations: [operation.id]))
      }
    } catch {
      result = outcome(of: error)
    }
    run.record(
      OperationRecord(
        operation: push, summary: "from a hook: \(run.describe(push))", start: begin, end: run.now(), outcome: result,
        nested: true))
  }
}
