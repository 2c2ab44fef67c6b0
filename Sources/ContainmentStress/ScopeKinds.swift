import Containment
import ContainmentLocking
import ContainmentTestKit

/// Per tree, a custom container `K` (installed under the root) written on
/// the public transaction scope (`withTransaction`) and on the public
/// children-change engine (`changeChildren`), with leaves that move between
/// the `K`s of every tree.
///
/// Only the scope kinds touch them.
struct ScopeTrees: Sendable {
  let containers: [Int]
  /// Every `K` leaf (a pool shared by the trees' `K`s).
  let leaves: [Int]
  /// Per `K`: keeps each engine change apart from the other requests on
  /// that `K` (an engine change may only reorder: see `StackGate`).
  let gates: [StackGate]

  init(trees: Int, make: (String) -> Int) {
    containers = (0..<trees).map { make("K\($0)") }
    gates = (0..<trees).map { _ in StackGate() }
    leaves = (0..<trees).flatMap { tree in (0..<3).map { make("KL\(tree).\($0)") } }
  }

  /// The gate of `K` at world index `container`.
  func gate(of container: Int) -> StackGate {
    guard let tree = containers.firstIndex(of: container) else { preconditionFailure("#\(container) is not a K") }
    return gates[tree]
  }
}

/// Who a custom container's change touches: its container, the children it
/// had before that the change touches, and those it has after.
///
/// Between the change's first and last event no other request's event may reach
/// the container; none may reach a child from the change's first event until
/// the child's own last one (a child there before), or from the child's first
/// event until the change's last (a child there after).
struct ScopeMembers: Sendable {
  var container: Int
  var before: [Int]
  var after: [Int]
}

extension World {
  /// Each `K` installed under its tree's root: its first leaf installed, the
  /// second a child whose view is not installed, the third detached.
  func setUpScopedTrees() async throws {
    for (tree, container) in scoped.containers.enumerated() {
      try await install(self[container], in: self[roots[tree]])
      try await install(self[scoped.leaves[tree * 3]], in: self[container])
      try await self[container].addChild(self[scoped.leaves[tree * 3 + 1]])
    }
  }

  /// The `K`s as `model` has them.
  func setUpScopedTrees(from model: Model) async throws {
    for (tree, container) in scoped.containers.enumerated() {
      try await install(self[container], in: self[roots[tree]])
      for child in model.nodes[container].children {
        if model.nodes[child].installed {
          try await install(self[child], in: self[container])
        } else {
          try await self[container].addChild(self[child])
        }
      }
    }
  }
}

/// A custom container's multi-step change in **one** transaction scope
/// (R6), the UIKit way: the old child removed (`willMove(nil)`, view
/// removed, `removeFromParent`) and a new one added (`addChild`, view
/// installed, `didMove`); or only one of them; or the shown child switched
/// by hand; or a new child added and shown with `transition(from:to:)`.
///
/// In one variant the new child, from its `viewDidAppear`, asks to adopt a
/// spare leaf: a request from a did-hook onto a controller the scope still
/// owes its `didMove`, which must wait for the scope's end (R2, R6).
/// Replayed on the model as the verbs it ran, and checked to be atomic
/// (`Checks.checkScopes`).
struct ScopeKind: OperationKind {
  let name = OperationKindName.scope
  let weight = 5

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let container = rng.pick(world.scoped.containers) else { return nil }
    let children = snapshot.children[container]
    let old = rng.pick(children.filter { snapshot.installed[$0] }) ?? -1
    let hidden = rng.pick(children.filter { !snapshot.installed[$0] }) ?? -1
    let new = rng.pick(world.scoped.leaves.filter { snapshot.parent[$0] == nil }) ?? -1
    let spare = rng.pick(world.scoped.leaves.filter { snapshot.parent[$0] == nil && $0 != new }) ?? -1
    return Operation(id: id, kind: name, targets: [container, old, hidden, new, spare], variant: rng.below(11))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let index = operation.targets[0]
    let container = world[index]
    let (old, hidden, new, spare) = (
      operation.targets[1], operation.targets[2], operation.targets[3], operation.targets[4]
    )
    let variant = operation.variant
    let steps = StepLog()
    let members = Locked(ScopeMembers(container: index, before: [], after: []))
    let failure = Locked(Outcome.succeeded)
    let gate = world.scoped.gate(of: index)
    guard await gate.enter(exclusive: false) else { return .cancelled }
    defer { gate.leave(exclusive: false) }
    do {
      let handle = try await container.withTransaction { _ in
        func remove(_ child: Int) async throws {
          let controller = world[child]
          guard controller.parent === container else { return }
          members.withLock { $0.before.append(child) }
          await controller.willMove(toParent: nil)
          steps.append(.willMove(child: child, parent: nil))
          try await controller.view.removeFromSuperview()
          steps.append(.removeFromSuperview(child: child))
          try await controller.removeFromParent()
          steps.append(.remove(parent: index, child: child))
        }
        /// `addChild`; true if it linked the child at once (false: it became a move, queued behind the scope).
        func add(_ child: Int) async throws -> Bool {
          let controller = world[child]
          guard controller.parent == nil else { return false }
          let handle = try await container.addChild(controller)
          guard handle.isComplete else {
            run.register(handle.id, [.attach(parent: index, child: child)], operation: operation.id)
            run.watch(handle)
            return false
          }
          members.withLock { $0.after.append(child) }
          steps.append(.attach(parent: index, child: child))
          return true
        }
        func install(_ child: Int) async throws {
          try await container.view.addSubview(await world[child].view)
          steps.append(.addSubview(parent: index, child: child))
          members.withLock { $0.after.append(child) }
        }
        // An error ends the scope with what its verbs did (isolation, no rollback): the steps logged so far.
        do {
          switch variant {
          case 0...3:
            // Replace: the old child out the UIKit way, the new one in.
            if old >= 0 { try await remove(old) }
            if new >= 0, try await add(new) {
              try await install(new)
              await world[new].didMove(toParent: container)
              steps.append(.didMove(child: new, parent: index))
            }
          case 4, 10:
            if variant == 10, new >= 0, spare >= 0 { armAdoption(of: world[spare], by: world[new], run: run) }
            if new >= 0, try await add(new) {
              try await install(new)
              await world[new].didMove(toParent: container)
              steps.append(.didMove(child: new, parent: index))
            }
          case 5, 6:
            if old >= 0 { try await remove(old) }
          case 7:
            // Switch the shown child by hand.
            guard old >= 0, hidden >= 0, world[old].parent === container, world[hidden].parent === container,
              world[old].viewIfLoaded?.superview != nil, world[hidden].viewIfLoaded?.superview == nil
            else { return }
            members.withLock { $0.before.append(old) }
            try await world[old].view.removeFromSuperview()
            steps.append(.removeFromSuperview(child: old))
            try await install(hidden)
          default:
            // A new child shown in place of the old one by a transition inside the scope.
            guard old >= 0, new >= 0, world[old].parent === container, world[old].viewIfLoaded?.superview != nil else {
              return
            }
            guard try await add(new) else { return }
            members.withLock { $0.before.append(old) }
            let animated = variant == 9
            let transition = try await container.transition(
              from: world[old], to: world[new], duration: animated ? .milliseconds(1) : .zero)
            let outcome = try await transition.value
            steps.append(.transition(container: index, from: old, to: new, animated: animated, outcome: outcome))
            await world[new].didMove(toParent: container)
            steps.append(.didMove(child: new, parent: index))
          }
        } catch {
          failure.withLock { $0 = outcome(of: error) }
        }
      }
      run.register(handle.id, steps.all, operation: operation.id, scope: members.withLock { $0 })
      // An action that did not fire now must not fire in someone else's operation.
      if variant == 10, new >= 0 { world[new].armedDidAppear.withLock { $0 = nil } }
      return failure.withLock { $0 }
    } catch {
      return outcome(of: error)
    }
  }
}

/// A custom container's change through the children-change engine (R6):
/// some children leave, some join, one or two shown, animated or not.
struct EngineKind: OperationKind {
  let name = OperationKindName.engine
  let weight = 3

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let container = rng.pick(world.scoped.containers) else { return nil }
    var children = snapshot.children[container].filter { _ in rng.chance(0.6) }
    for leaf in world.scoped.leaves where snapshot.parent[leaf] == nil && rng.chance(0.4) {
      children.insert(leaf, at: rng.below(children.count + 1))
    }
    // variant: timing (0 plain, 1 animated, 2 animated for a millisecond) + 3 × how many are shown.
    let shown = children.isEmpty ? 0 : rng.below(min(children.count, 2) + 1)
    return Operation(id: id, kind: name, targets: [container] + children, variant: rng.below(3) + 3 * shown)
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let index = operation.targets[0]
    let children = Array(operation.targets.dropFirst())
    let shown = Array(children.suffix(operation.variant / 3))
    let animated = operation.variant % 3 != 0
    let change = ChildrenChange(
      children: children.map { world[$0] }, shown: shown.map { world[$0] }, animated: animated,
      duration: operation.variant % 3 == 2 ? .milliseconds(1) : .zero)
    // Alone on its container: a change that keeps the children and only
    // reorders them leaves no event, and the replay places it by time.
    let gate = world.scoped.gate(of: index)
    guard await gate.enter(exclusive: true) else { return .cancelled }
    defer { gate.leave(exclusive: true) }
    let before = world[index].children.compactMap { world.indexByID[$0.node.id] }
    let entered = run.now()
    do {
      let handle = try await world[index].changeChildren(change)
      run.register(
        handle.id, [.changeChildren(container: index, children: children, shown: shown, animated: animated)],
        operation: operation.id, window: entered...run.now(),
        scope: ScopeMembers(container: index, before: before, after: children))
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }
}

extension Checks {
  /// Each custom container's scope and engine change is atomic (R6): no
  /// other request's event, and no event outside any transaction, falls
  /// among its events on the controllers it touches (see `ScopeMembers`).
  mutating func checkScopes() {
    var scopes: [TransactionID: ScopeMembers] = [:]
    for (id, registered) in history.registered { if let scope = registered.scope { scopes[id] = scope } }
    guard !scopes.isEmpty else { return }
    var positions: [TransactionID: [Int: (first: Int, last: Int)]] = [:]
    var spans: [TransactionID: (first: Duration, last: Duration)] = [:]
    for (index, events) in history.events.enumerated() {
      for (position, event) in events.enumerated() {
        guard let id = event.transaction, scopes[id] != nil else { continue }
        positions[id, default: [:]][index] = positions[id]?[index].map { ($0.first, position) } ?? (position, position)
        spans[id] =
          spans[id].map { (min($0.first, event.timestamp), max($0.last, event.timestamp)) } ?? (
            event.timestamp, event.timestamp
          )
      }
    }
    var reported = 0
    for (id, perController) in positions.sorted(by: { $0.key < $1.key }) {
      guard let members = scopes[id], let span = spans[id] else { continue }
      for (index, range) in perController.sorted(by: { $0.key < $1.key }) {
        let events = history.events[index]
        var intruder = (range.first...range.last).first { events[$0].transaction != id }
        if intruder == nil, index == members.container || members.before.contains(index) {
          var position = range.first - 1
          while position >= 0, events[position].timestamp > span.first {
            if events[position].transaction != id { intruder = position }
            position -= 1
          }
        }
        if intruder == nil, index == members.container || members.after.contains(index) {
          var position = range.last + 1
          while position < events.count, events[position].timestamp < span.last, intruder == nil {
            if events[position].transaction != id { intruder = position }
            position += 1
          }
        }
        guard let intruder else { continue }
        let owner = history.registered[id].flatMap { registered in
          history.records.first { $0.operation.id == registered.operation }
        }
        let context = events[max(0, intruder - 3)...min(events.count - 1, intruder + 3)].map(describe).joined(
          separator: ", ")
        fail(
          .atomicity,
          "the custom container's change \(id) [\(owner?.summary ?? "?")] is not atomic: \(describe(events[intruder])) falls among its events on \(history.name(index)): \(context)",
          operations: [history.registered[id]?.operation].compactMap { $0 })
        reported += 1
        if reported >= 20 { return }
        break
      }
    }
  }
}

/// Arms `adopter` to ask, from its next `viewDidAppear`, to adopt `spare`
/// (`addChild`, a request onto `adopter`'s own queue): a nested request from
/// a did-hook, recorded as an operation of its own.
private func armAdoption(of spare: StressController, by adopter: StressController, run: Run) {
  adopter.armedDidAppear.withLock {
    $0 = {
      let start = run.now()
      let nested = Operation(
        id: run.nextOperationID(), kind: .nested, targets: [adopter.index, spare.index], variant: 0)
      var result = Outcome.succeeded
      do {
        let handle = try await adopter.addChild(spare)
        run.register(handle.id, [.attach(parent: adopter.index, child: spare.index)], operation: nested.id)
        run.watch(handle)
      } catch {
        result = outcome(of: error)
      }
      run.record(
        OperationRecord(
          operation: nested, summary: "from viewDidAppear: \(run.describe(nested))", start: start, end: run.now(),
          outcome: result, nested: true))
    }
  }
}
