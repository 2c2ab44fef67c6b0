import Containment
import ContainmentTestKit

/// A request made from inside a hook (R2): the leaf is armed, then added;
/// inside its `willMove(toParent:)` it asks the same container (queued behind
/// the running transaction), another container, removes itself, or awaits its
/// own queued request (must be refused with `awaitingOwnTransaction`).
struct NestedKind: OperationKind {
  let name = OperationKindName.nested
  let weight = 5

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    guard let child = rng.pick(world.leaves),
      let parent = rng.pick(world.containers(for: child).filter({ $0 != snapshot.parent[child] })),
      let other = rng.pick(world.leaves(like: child).filter { $0 != child }),
      let third = rng.pick(world.containers(for: child))
    else { return nil }
    return Operation(id: id, kind: name, targets: [parent, child, other, third], variant: rng.below(4))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let (parent, child, other, third) = (
      world[operation.targets[0]], world[operation.targets[1]], world[operation.targets[2]], world[operation.targets[3]]
    )
    let variant = operation.variant
    let id = operation.id
    child.armed.withLock {
      $0 = { hookParent in
        guard let hookParent = hookParent as? StressController else { return }
        let start = run.now()
        var nested = Operation(
          id: run.nextOperationID(), kind: .nested, targets: [hookParent.index, other.index], variant: variant)
        var result = Outcome.succeeded
        do {
          switch variant {
          case 0, 2:
            let handle = try await hookParent.addChild(other)
            run.register(handle.id, [.attach(parent: hookParent.index, child: other.index)], operation: nested.id)
            run.watch(handle)
            if variant == 2, !handle.isComplete {
              do {
                _ = try await handle.value
                run.report(
                  Finding(
                    category: .expectedError,
                    message:
                      "awaiting a request queued behind the running transaction returned instead of throwing awaitingOwnTransaction (op \(id))",
                    operations: [id]))
              } catch ContainmentError.awaitingOwnTransaction {
              } catch {
                run.report(
                  Finding(
                    category: .expectedError,
                    message: "awaiting own queued request threw \(error), expected awaitingOwnTransaction (op \(id))",
                    operations: [id]))
              }
            }
          case 1:
            nested.targets = [child.index]
            let handle = try await child.removeFromParent()
            run.register(handle.id, [.remove(parent: -1, child: child.index)], operation: nested.id)
            run.watch(handle)
          default:
            nested.targets = [third.index, other.index]
            let handle = try await third.addChild(other)
            run.register(handle.id, [.attach(parent: third.index, child: other.index)], operation: nested.id)
            run.watch(handle)
          }
        } catch {
          result = outcome(of: error)
        }
        run.record(
          OperationRecord(
            operation: nested, summary: "from a hook: \(run.describe(nested))", start: start, end: run.now(),
            outcome: result, nested: true))
      }
    }
    let result = await addChild(child, to: parent, run: run, operation: id)
    // An action that did not fire now must not fire in someone else's operation.
    child.armed.withLock { $0 = nil }
    return result
  }
}

/// Every misuse of §8 whose error does not depend on timing: each must
/// throw exactly the expected error and leave no trace (any event it caused
/// would be an unexplained transaction).
struct MisuseKind: OperationKind {
  let name = OperationKindName.misuse
  let weight = 8
  static let variants = 23

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let tree = rng.below(world.roots.count)
    guard let stranger = rng.pick(world.strangers) else { return nil }
    return Operation(
      id: id, kind: name,
      targets: [world.roots[tree], world.autoContainers[tree], world.manualContainers[tree], stranger],
      variant: rng.below(Self.variants))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let (root, auto, manual, stranger) = (
      world[operation.targets[0]], world[operation.targets[1]], world[operation.targets[2]], world[operation.targets[3]]
    )
    let doomed = world[world.doomedRoot]
    let doomedLeaf = world[world.doomedLeaf]
    let expected: [ContainmentError]
    let attempt: @Sendable () async throws -> Void
    switch operation.variant {
    case 0:
      expected = [.cannotAddSelfAsChild(auto.node.id)]
      attempt = { try await auto.addChild(auto) }
    case 1:
      expected = [.wouldCreateCycle(child: root.node.id, parent: manual.node.id)]
      attempt = { try await manual.addChild(root) }
    case 2:
      expected = [.alreadyChild(child: auto.node.id, parent: root.node.id)]
      attempt = { try await root.addChild(auto) }
    case 3:
      expected = [.noParent(stranger.node.id)]
      attempt = { try await stranger.removeFromParent() }
    case 4:
      expected = [.alreadyInWindow(root.node.id)]
      attempt = { try await stranger.addChild(root) }
    case 5:
      expected = [.notAChild(child: stranger.node.id, parent: root.node.id)]
      attempt = { try await root.transition(from: stranger, to: auto) }
    case 6:
      expected = [.sameController(manual.node.id)]
      attempt = { try await root.transition(from: manual, to: manual) }
    case 7:
      expected = [.viewAlreadyInstalled(manual.node.id), .viewNotInstalled(auto.node.id)]
      attempt = { try await root.transition(from: auto, to: manual) }
    case 8:
      expected = [.foreignView]
      attempt = { try await root.view.addSubview(await stranger.view) }
    case 9:
      expected = [.viewHierarchyCycle]
      attempt = { try await manual.view.addSubview(await root.view) }
    case 10:
      expected = [.tornDown(doomed.node.id)]
      attempt = { try await doomed.addChild(stranger) }
    case 11:
      expected = [.tornDown(doomedLeaf.node.id)]
      attempt = { try await doomedLeaf.removeFromParent() }
    case 12:
      expected = [.tornDown(doomed.node.id)]
      attempt = { try await doomed.transition(from: doomedLeaf, to: doomedLeaf) }
    case 13:
      expected = [.windowTornDown]
      attempt = { try await world.doomedWindow.setRootViewController(stranger) }
    case 14:
      expected = [.notAChild(child: stranger.node.id, parent: manual.node.id)]
      attempt = {
        var batch = AppearanceBatch()
        batch.appear(stranger)
        try await manual.commit(batch)
      }
    case 15:
      // A4 from outside any transaction: never traps, reported as a diagnostic event.
      await stranger.endAppearanceTransition()
      return .failed("\(UnbalancedAppearanceTransition.endWithoutBegin)")
    case 16:
      expected = [.windowTornDown]
      attempt = { try await world.doomedWindow.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    case 17:
      expected = [.tornDown(doomedLeaf.node.id)]
      attempt = { try await doomedLeaf.view.removeFromSuperview() }
    case 18:
      expected = [.batchNeedsManualForwarding(auto.node.id)]
      attempt = {
        var batch = AppearanceBatch()
        batch.disappear(stranger)
        try await auto.commit(batch)
      }
    case 19:
      // Calls that cannot throw on a torn-down tree, and a second teardown: no hook, no change.
      await doomedLeaf.beginAppearanceTransition(true, animated: false)
      await doomedLeaf.endAppearanceTransition()
      await doomedLeaf.willMove(toParent: nil)
      await doomedLeaf.didMove(toParent: nil)
      do {
        try await world.doomedWindow.tearDown()
      } catch {
        run.report(
          Finding(category: .expectedError, message: "a second teardown threw \(error)", operations: [operation.id]))
      }
      return .failed("\(IgnoredCall.tornDown)")
    case 20:
      return await appearingWithoutWindow(operation, run: run)
    case 21:
      // A window's own view into a view of its own tree (a cycle too) or of another tree.
      let window = world.windows[world.tree(ofRoot: operation.targets[0])]
      let other = world.windows[(world.tree(ofRoot: operation.targets[0]) + 1) % world.windows.count]
      expected = [.windowRootView]
      attempt = {
        try await manual.view.addSubview(other.rootView)
        try await stranger.view.addSubview(window.rootView)
      }
    default:
      return await zeroSizedBuffers(operation, run: run)
    }
    do {
      try await attempt()
      run.report(
        Finding(
          category: .expectedError, message: "misuse \(run.describe(operation)) did not throw; expected \(expected)",
          operations: [operation.id]))
      return .succeeded
    } catch let error as ContainmentError where expected.contains(error) {
      return .failed("\(error)")
    } catch {
      run.report(
        Finding(
          category: .expectedError, message: "misuse \(run.describe(operation)) threw \(error); expected \(expected)",
          operations: [operation.id]))
      return outcome(of: error)
    }
  }
}

/// A controller no world tree knows: the misuses below report on its own
/// stream, which the history does not record.
private actor Loner: ViewController {
  nonisolated let node = ControllerNode(name: "loner")
}

extension MisuseKind {
  /// `beginAppearanceTransition(true)` with no parent and no window: refused
  /// with a `callIgnored` event, the controller stays `disappeared`.
  fileprivate func appearingWithoutWindow(_ operation: Operation, run: Run) async -> Outcome {
    let loner = Loner()
    var events = loner.events().makeAsyncIterator()
    await loner.beginAppearanceTransition(true, animated: false)
    let heard = [await events.next()?.kind, await events.next()?.kind]
    let expected: [LifecycleEvent.Kind?] = [
      .subscribed(state: .disappeared, parent: nil), .callIgnored(.appearingWithoutWindow),
    ]
    if heard != expected || loner.node.appearanceState != .disappeared {
      run.report(
        Finding(
          category: .expectedError,
          message: "begin(true) off-window: heard \(heard), state \(loner.node.appearanceState)",
          operations: [operation.id]))
    }
    return .failed("\(IgnoredCall.appearingWithoutWindow)")
  }

  /// Zero-sized subscriber buffers hold one element instead of trapping; the
  /// snapshot is kept apart and comes first (E5).
  fileprivate func zeroSizedBuffers(_ operation: Operation, run: Run) async -> Outcome {
    let loner = Loner()
    var newest = loner.events(policy: .keepNewest(0)).makeAsyncIterator()
    var lagging = loner.events(policy: .disconnectOnLag(0)).makeAsyncIterator()
    await loner.willMove(toParent: nil)
    await loner.willMove(toParent: nil)
    let snapshot = LifecycleEvent.Kind.subscribed(state: .disappeared, parent: nil)
    let heard = [
      await newest.next()?.kind, await newest.next()?.kind, await newest.next()?.kind,
      await lagging.next()?.kind, await lagging.next()?.kind, await lagging.next()?.kind,
    ]
    if heard != [snapshot, .eventsLost(count: 1), .willMove(toParent: nil), snapshot, .lagged, nil] {
      run.report(
        Finding(category: .expectedError, message: "zero-sized buffers: heard \(heard)", operations: [operation.id]))
    }
    return .failed("capacity 1")
  }
}
