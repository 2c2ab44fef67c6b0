import ContainmentLocking
/// Fault policies (V2): what happens to a controller the gateway for user
/// code (``Gateway``) faulted.
enum HookSupervision {
  /// What a faulted controller's policy does, run once the transaction that
  /// saw the fault has ended (`context`'s deferred requests), or at once
  /// when the hook ran outside any transaction.
  ///
  /// Never waits for a queue: the action is a request of its own, run now if
  /// its queue is free, else queued there (R1).
  static func faulted(_ controller: any ViewController, policy: FaultPolicy, context: TransactionContext?) async {
    guard policy != .reportOnly else { return }
    if let context {
      // Counted by every governor the policy may act on (a parent, a
      // presenter, the window or the root), even once the transaction has
      // cut a part of the tree off. Applied now if the transaction has ended
      // meanwhile.
      let path = TreeLock.withLock(controller.node) { held in Governor.path(held, from: controller) }
      if !context.deferUntilEnd(onto: path, { await apply(policy, to: controller) }) {
        await apply(policy, to: controller)
      }
    } else {
      await apply(policy, to: controller)
    }
  }

  private enum Isolation {
    case parent(any ViewController)
    case presenter(any ViewController)
    case window(Window)
  }

  private static func apply(_ policy: FaultPolicy, to controller: any ViewController) async {
    if policy == .tearDownTree { return await tearDownTree(of: controller) }
    let isolation = TreeLock.withLock(controller.node) { (held: LinkSection) -> Isolation? in
      let node = controller.node
      if node[held].supervision.isTornDown { return nil }
      if let parent = node[held].parent { return .parent(parent) }
      if let presenter = node[held].presenting { return .presenter(presenter) }
      if let window = node[held].window, window[held].rootViewController === controller { return .window(window) }
      return nil
    }
    switch isolation {
    case .parent(let parent):
      await request(on: .controller(parent)) { context in
        try await leave(controller, parent: parent, reason: .faulted, context: context)
      }
    case .presenter(let presenter):
      await request(on: .controller(presenter)) { context in
        await leave(controller, presenter: presenter, reason: .faulted, context: context)
      }
    case .window(let window):
      await request(on: .window(window)) { context in
        try await window.removeRoot(controller, reason: .faulted, context: context)
      }
    case nil:
      return
    }
  }

  /// Inside a transaction on `parent`: `controller` leaves it with `reason`.
  ///
  /// By the container's own rules if it has some (``FaultIsolating``), else
  /// the UIKit way (`willMove(nil)`, removal). Nothing if it left meanwhile.
  static func leave(
    _ controller: any ViewController, parent: any ViewController, reason: RemovalReason,
    context: TransactionContext
  ) async throws {
    guard TreeLock.withLock(controller.node, { held in controller.node.hasParent(held, parent) }) else { return }
    if let container = parent as? any FaultIsolating {
      return try await container.isolate(controller, reason: reason, context: context)
    }
    if await parent.removeChildByItsPolicy(controller, reason: reason, context: context) { return }
    await controller.performWillMove(toParent: nil, in: context, asBody: true)
    try await parent.removeChild(controller, reason: reason, context: context)
  }

  /// Inside a transaction on `presenter`: `controller`'s presentation ends with `reason`.
  ///
  /// Whatever it presents ends with it. Nothing if it ended meanwhile.
  static func leave(
    _ controller: any ViewController, presenter: any ViewController, reason: RemovalReason,
    context: TransactionContext
  ) async {
    guard TreeLock.withLock(presenter.node, { held in presenter.node[held].presented === controller }) else { return }
    await presenter.runDismissal(animated: false, reason: reason, context: context)
  }

  /// Runs `body` as a transaction on `governor`'s queue without waiting for
  /// it: at once if the queue is free, else queued behind what waits there.
  ///
  /// Not cancellable: an isolation, once decided, is not lost.
  private static func request(on governor: Governor, _ body: @escaping Transaction.Body<Void>) async {
    let handle = TransactionHandle<Void>(id: .next(), queuedBehind: [])
    await Transaction.dispatch(
      body, on: governor, handle: handle, chain: TransactionContext.current?.runningChain() ?? [])
  }

  private static func tearDownTree(of controller: any ViewController) async {
    switch TreeLock.withLock(controller.node, { held in Governor.path(held, from: controller).last }) {
    case .window(let window): await window.tearDownInOrder()
    case .controller(let root): await root.tearDown()
    case nil: return
    }
  }
}

/// A built-in container that lets a faulted or torn-down child go by its own rules, so
/// that it goes on showing something: a stack shows the controller below, a
/// tab bar selects a neighbour.
///
/// Other containers lose the child the UIKit way (`willMove(nil)`, removal).
protocol FaultIsolating: ViewController {
  /// Inside a transaction on this container's queue: removes `child` with
  /// `reason` (``RemovalReason/faulted``, or ``RemovalReason/tornDown``
  /// when the child's own tree is torn down).
  func isolate(_ child: any ViewController, reason: RemovalReason, context: TransactionContext) async throws
}

extension ViewController {
  /// Whether a hook of this controller ran past its environment's
  /// ``ContainmentEnvironment/hookDeadline`` (V1).
  ///
  /// A faulted controller gets no more hooks: each is skipped and reported as a
  /// `hookSkipped` event. A synchronous snapshot; it never suspends.
  public nonisolated var isFaulted: Bool { TreeLock.withLock(node) { held in node[held].supervision.isFaulted } }
}
