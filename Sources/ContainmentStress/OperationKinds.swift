import Containment
import ContainmentTestKit

/// The registry of operation kinds, with the default mix.
enum OperationKinds {
  static let all: [any OperationKind] = [
    AddKind(name: .add, moving: false, weight: 10),
    AddKind(name: .move, moving: true, weight: 10),
    OppositeMovesKind(),
    RemoveKind(),
    InstallKind(),
    UninstallKind(),
    TransitionKind(),
    BatchKind(),
    ManualAppearanceKind(),
    ToggleContainerKind(),
    NestedKind(),
    MisuseKind(),
    PushKind(),
    PopKind(name: .pop),
    PopToKind(),
    PopKind(name: .popToRoot),
    SetStackKind(),
    InteractivePopKind(),
    SelectTabKind(name: .selectTab),
    SelectTabKind(name: .setTabIndex),
    SetTabsKind(),
    TraitFlipKind(),
    ShowColumnKind(),
    SelfRemovalKind(),
    RehomeKind(),
    ScopeKind(),
    EngineKind(),
    DeepStackKind(),
    WideContainerKind(),
    TearDownPartKind(),
    PresentKind(),
    DismissKind(),
    InteractiveDismissKind(),
    PresentationRootKind(),
    PresentMisuseKind(),
    PresentKind(name: .presentFromChild),
    AwaitIdleKind(),
    OrphanKind(),
    ReleasedWindowKind(),
    HungHookKind(),
    SlowChildrenKind(),
  ]

  static func kind(_ name: OperationKindName) -> any OperationKind {
    guard let kind = all.first(where: { $0.name == name }) else { preconditionFailure("no kind named \(name)") }
    return kind
  }

  /// A random operation of the kinds `options` selects, or nil when they
  /// have nothing to do on `world` as it is (1000 rolls in a row found
  /// nothing): `--kinds add` alone, once every leaf has a parent.
  static func generate(_ rng: inout SplitMix64, world: World, id: Int, options: Options) -> Operation? {
    let snapshot = WorldSnapshot(world)
    let kinds: [any OperationKind]
    if let chosen = options.kinds {
      kinds = all.filter { chosen.contains($0.name) }
    } else {
      kinds = options.profile == .full ? all : all.filter { $0.name != .toggleContainer }
    }
    let total = kinds.reduce(0) { $0 + $1.weight }
    for _ in 0..<1000 {
      var roll = rng.below(total)
      for kind in kinds {
        roll -= kind.weight
        guard roll < 0 else { continue }
        if var operation = kind.generate(&rng, world: world, snapshot: snapshot, id: id) {
          if kind.name != .misuse, kind.name != .nested, !kind.name.isShielded, rng.chance(0.15) {
            operation.cancellation = rng.chance(0.3) ? .immediately : .after(microseconds: rng.below(400))
          }
          return operation
        }
        break
      }
    }
    return nil
  }
}

extension World {
  var leaves: [Int] { autoLeaves + manualLeaves }
  /// The containers a leaf may live in: those of its own kind.
  func containers(for leaf: Int) -> [Int] {
    autoLeaves.contains(leaf) ? autoContainers : manualContainers
  }
  func leaves(like leaf: Int) -> [Int] {
    autoLeaves.contains(leaf) ? autoLeaves : manualLeaves
  }
}

/// `parent.addChild(child)`: a plain add of a parentless leaf, or a move
/// between containers (C6) when the leaf has a parent.
struct AddKind: OperationKind {
  let name: OperationKindName
  let moving: Bool
  let weight: Int

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let child = rng.pick(world.leaves.filter { (snapshot.parent[$0] != nil) == moving }) else { return nil }
    guard let parent = rng.pick(world.containers(for: child).filter { $0 != snapshot.parent[child] }) else {
      return nil
    }
    return Operation(id: id, kind: name, targets: [parent, child])
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    await addChild(
      run.world[operation.targets[1]], to: run.world[operation.targets[0]], run: run, operation: operation.id)
  }
}

/// `parent.addChild(child)` from outside any transaction, registered as one
/// attach (a move's removal half is recognised from its events).
func addChild(_ child: StressController, to parent: StressController, run: Run, operation: Int) async -> Outcome {
  do {
    let handle = try await parent.addChild(child)
    run.register(handle.id, [.attach(parent: parent.index, child: child.index)], operation: operation)
    return .succeeded
  } catch {
    return outcome(of: error)
  }
}

/// Two containers take each other's child at the same moment (C6: must not deadlock).
struct OppositeMovesKind: OperationKind {
  let name = OperationKindName.oppositeMoves
  let weight = 4

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let pool = rng.chance(0.7) ? world.autoContainers : world.manualContainers
    guard pool.count >= 2 || rng.chance(0.5) else { return nil }
    guard let first = rng.pick(pool),
      let second = rng.pick(pool.filter { $0 != first } + (pool.count < 2 ? [first] : [])),
      first != second,
      let x = rng.pick(snapshot.children[first]), let y = rng.pick(snapshot.children[second])
    else { return nil }
    return Operation(id: id, kind: name, targets: [first, x, second, y])
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let (p, x, q, y) = (
      world[operation.targets[0]], world[operation.targets[1]], world[operation.targets[2]], world[operation.targets[3]]
    )
    return await withTaskGroup(of: Outcome.self) { group in
      group.addTask { await addChild(y, to: p, run: run, operation: operation.id) }
      group.addTask { await addChild(x, to: q, run: run, operation: operation.id) }
      var result = Outcome.succeeded
      for await outcome in group where outcome != .succeeded { result = outcome }
      return result
    }
  }
}

/// `child.removeFromParent()` (C2).
struct RemoveKind: OperationKind {
  let name = OperationKindName.remove
  let weight = 6

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let child = rng.pick(world.leaves.filter { snapshot.parent[$0] != nil }) else { return nil }
    return Operation(id: id, kind: name, targets: [child])
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let child = run.world[operation.targets[0]]
    do {
      let handle = try await child.removeFromParent()
      run.register(handle.id, [.remove(parent: -1, child: child.index)], operation: operation.id)
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// Runs `script` as the body of one transaction of `container`: an empty
/// appearance batch whose animations closure does the work.
///
/// Verbs called there on the same container run inline, as part of the
/// transaction (the way a container's own code would run them), so the whole
/// script is one transaction the model can replay.
func carrier(
  _ container: StressController, run: Run, operation: Int, _ script: @escaping @Sendable (StepLog) async -> Void
) async -> Outcome {
  let steps = StepLog()
  do {
    let handle = try await container.commit(AppearanceBatch(), animations: { await script(steps) })
    run.register(
      handle.id, steps.all + [.batch(container: container.index, intents: [], animated: false)], operation: operation)
    return .succeeded
  } catch {
    return outcome(of: error)
  }
}

/// The UIKit three-step add, in one transaction of the container:
/// `addChild`, install the child's view, `didMove(toParent:)` (C1, C3).
struct InstallKind: OperationKind {
  let name = OperationKindName.install
  let weight = 10

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let child = rng.pick(world.leaves.filter { snapshot.parent[$0] == nil }),
      let parent = rng.pick(world.containers(for: child))
    else { return nil }
    return Operation(id: id, kind: name, targets: [parent, child])
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let parent = run.world[operation.targets[0]]
    let child = run.world[operation.targets[1]]
    return await carrier(parent, run: run, operation: operation.id) { steps in
      guard child.parent == nil else { return }
      do {
        let handle = try await parent.addChild(child)
        guard handle.isComplete else {
          // The child got a parent meanwhile: the add became a move, queued behind us.
          run.register(handle.id, [.attach(parent: parent.index, child: child.index)], operation: operation.id)
          run.watch(handle)
          return
        }
        steps.append(.attach(parent: parent.index, child: child.index))
        try await parent.view.addSubview(await child.view)
        steps.append(.addSubview(parent: parent.index, child: child.index))
        await child.didMove(toParent: parent)
        steps.append(.didMove(child: child.index, parent: parent.index))
      } catch {}
    }
  }
}

/// The UIKit three-step removal, in one transaction of the container:
/// `willMove(toParent: nil)`, remove the view, `removeFromParent` (C2, C4).
///
/// A manual container first hides the child itself (A6).
struct UninstallKind: OperationKind {
  let name = OperationKindName.uninstall
  let weight = 8

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let child = rng.pick(world.leaves.filter { snapshot.parent[$0] != nil }), let parent = snapshot.parent[child]
    else {
      return nil
    }
    return Operation(id: id, kind: name, targets: [parent, child])
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let parent = run.world[operation.targets[0]]
    let child = run.world[operation.targets[1]]
    return await carrier(parent, run: run, operation: operation.id) { steps in
      guard child.parent === parent else { return }
      if !parent.forwards, child.node.appearanceState == .appeared {
        await child.beginAppearanceTransition(false, animated: false)
        steps.append(.begin(child: child.index, appearing: false, animated: false))
        await child.endAppearanceTransition()
        steps.append(.end(child: child.index))
      }
      await child.willMove(toParent: nil)
      steps.append(.willMove(child: child.index, parent: nil))
      do {
        try await child.view.removeFromSuperview()
        steps.append(.removeFromSuperview(child: child.index))
        try await child.removeFromParent()
        steps.append(.remove(parent: parent.index, child: child.index))
      } catch {}
    }
  }
}

/// `container.transition(from:to:duration:)` (T1–T4), 0–3 ms on the real clock.
struct TransitionKind: OperationKind {
  let name = OperationKindName.transition
  let weight = 8
  static let durations: [Duration] = [.zero, .zero, .milliseconds(1), .milliseconds(3)]

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let container = rng.pick(world.containers) else { return nil }
    let children = snapshot.children[container]
    guard let from = rng.pick(children.filter { snapshot.installed[$0] }),
      let to = rng.pick(children.filter { !snapshot.installed[$0] })
    else { return nil }
    return Operation(id: id, kind: name, targets: [container, from, to], variant: rng.below(Self.durations.count))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let (container, from, to) = (world[operation.targets[0]], world[operation.targets[1]], world[operation.targets[2]])
    let duration = Self.durations[operation.variant]
    do {
      let handle = try await container.transition(from: from, to: to, duration: duration)
      let outcome = try await handle.value
      run.register(
        handle.id,
        [
          .transition(
            container: container.index, from: from.index, to: to.index, animated: duration > .zero, outcome: outcome)
        ],
        operation: operation.id)
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// A coalesced appearance batch on a manual container (A7).
struct BatchKind: OperationKind {
  let name = OperationKindName.batch
  let weight = 5

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let container = rng.pick(world.manualContainers), !snapshot.children[container].isEmpty else { return nil }
    var targets = [container]
    for _ in 0..<(1 + rng.below(4)) {
      guard let child = rng.pick(snapshot.children[container]) else { return nil }
      targets.append(child)
    }
    // variant: timing (0 plain, 1 animated, 2 one millisecond) + 3 × bit mask of appearing intents.
    return Operation(id: id, kind: name, targets: targets, variant: rng.below(3) + 3 * rng.below(16))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let container = run.world[operation.targets[0]]
    var batch = AppearanceBatch()
    var intents: [ModelStep.BatchIntent] = []
    for position in 1..<operation.targets.count {
      let child = run.world[operation.targets[position]]
      let appearing = (operation.variant / 3) >> (position - 1) & 1 == 1
      if appearing { batch.appear(child) } else { batch.disappear(child) }
      intents.append(.init(child: child.index, appearing: appearing))
    }
    let animated = operation.variant % 3 == 1
    let duration: Duration = operation.variant % 3 == 2 ? .milliseconds(1) : .zero
    do {
      let handle = try await container.commit(batch, animated: animated, duration: duration)
      run.register(
        handle.id, [.batch(container: container.index, intents: intents, animated: animated || duration > .zero)],
        operation: operation.id)
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

/// A manual container driving a child's appearance by hand (A3, A6),
/// balanced or deliberately unbalanced (A4), inside its own transaction:
/// from outside, or from the container's own actor (variants 12–23).
struct ManualAppearanceKind: OperationKind {
  let name = OperationKindName.manualAppearance
  let weight = 6

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let container = rng.pick(world.manualContainers), let child = rng.pick(snapshot.children[container]) else {
      return nil
    }
    return Operation(id: id, kind: name, targets: [container, child], variant: rng.below(24))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let container = run.world[operation.targets[0]]
    let child = run.world[operation.targets[1]]
    let animated = operation.variant % 12 >= 6
    let script = operation.variant % 6
    let fromContainer = operation.variant >= 12
    return await carrier(container, run: run, operation: operation.id) { steps in
      guard child.parent === container else { return }
      let appeared = child.node.appearanceState == .appeared
      func begin(_ appearing: Bool) async {
        if fromContainer {
          await container.forwardBegin(to: child, appearing: appearing, animated: animated)
        } else {
          await child.beginAppearanceTransition(appearing, animated: animated)
        }
        steps.append(.begin(child: child.index, appearing: appearing, animated: animated))
      }
      func end() async {
        if fromContainer {
          await container.forwardEnd(to: child)
        } else {
          await child.endAppearanceTransition()
        }
        steps.append(.end(child: child.index))
      }
      switch script {
      case 0:  // show or hide
        await begin(!appeared)
        await end()
      case 1:  // reversal (A3)
        await begin(!appeared)
        await begin(appeared)
        await end()
      case 2: await end()  // unbalanced: end without begin (A4)
      case 3:  // nested begin (A3, A4)
        await begin(!appeared)
        await begin(!appeared)
        await end()
        await end()
      case 4: await begin(appeared)  // toward the current state (A4)
      default:  // there and back
        await begin(!appeared)
        await end()
        await begin(appeared)
        await end()
      }
    }
  }
}

/// The root hides or shows its automatic container's view: a transaction of
/// an ancestor that changes the appearance of a whole subtree whose own
/// container keeps working concurrently.
struct ToggleContainerKind: OperationKind {
  let name = OperationKindName.toggleContainer
  let weight = 2

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.roots.count)
    // variant 1: hide (the view was installed when generated), 2: show.
    let installed = snapshot.installed[world.autoContainers[tree]]
    return Operation(
      id: id, kind: name, targets: [world.roots[tree], world.autoContainers[tree]], variant: installed ? 1 : 2)
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let root = run.world[operation.targets[0]]
    let container = run.world[operation.targets[1]]
    return await carrier(root, run: run, operation: operation.id) { steps in
      do {
        let view = await container.view
        if view.superview != nil {
          try await view.removeFromSuperview()
          steps.append(.removeFromSuperview(child: container.index))
        } else {
          try await root.view.addSubview(view)
          steps.append(.addSubview(parent: root.index, child: container.index))
        }
      } catch {}
    }
  }
}
