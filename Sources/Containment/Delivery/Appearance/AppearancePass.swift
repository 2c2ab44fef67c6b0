import ContainmentLocking

/// One coordinated appearance change of several controllers: the will-hooks
/// of all of them, then (for appearing ones) `viewIsAppearing`, then, after
/// whatever the transaction awaits in between (an animation), the did-hooks in
/// the same order (A1, A2, A7, T2).
///
/// Decisions are taken under the link lock; hooks run after it is released.
struct AppearancePass: Sendable {
  struct Entry: Sendable {
    let controller: any ViewController
    /// `controller.node`, read once: each later use saves the protocol
    /// witness call and its retain and release.
    let node: ControllerNode
    let isAppearing: Bool
    /// What its begin decided: the will-hook, or a diagnostic only.
    let willEffects: AppearanceMachine.Effects
    /// Whether its transition began (it has a will-hook, and its did-hook
    /// comes with ``deliverDid(in:)``); false for a diagnostic only.
    let began: Bool
    /// What its machine decided last, for the hooks delivered after the
    /// lock is released (kept here, in place: no list per decision).
    var decided = AppearanceMachine.Effects.none
  }

  /// Every controller whose begin decided something, in delivery order: one
  /// array for the will-hooks and the did-hooks.
  private var steps: [Entry] = []
  let animated: Bool
  /// The link domain of every begun entry and its generation when they were
  /// begun; nil while there are none, or if they came from several domains.
  private var domain: (index: Int, generation: UInt)?
  private var severalDomains = false

  init(animated: Bool) { self.animated = animated }

  /// How many controllers' transitions began.
  var beganCount: Int { steps.count(where: \.began) }

  /// Runs `update` on every step with the link domains of every entry held:
  /// in O(1) if nothing left their domain since they were begun (the common
  /// case: a pass's controllers are one subtree, and its transaction excludes
  /// every other change to it), else by reading each entry's domain.
  private mutating func updateSteps(_ update: (inout Entry, LinkSection) -> Void) {
    if let domain,
      TreeLock.withLock(
        domain: domain.index, ifGeneration: domain.generation,
        { (held: LinkSection) -> Void in
          for index in steps.indices { update(&steps[index], held) }
        }) != nil
    {
      return
    }
    let nodes = steps.filter(\.began).map(\.node)
    TreeLock.withLock(each: nodes, \.linkDomain) { held in
      for index in steps.indices { update(&steps[index], held) }
    }
  }

  /// Under the link lock: begins the transition of each controller, keeping
  /// those whose state changes.
  ///
  /// `automatic` passes skip controllers already in (or heading to) the target
  /// state, silently.
  mutating func begin(
    _ held: LinkSection, _ controllers: [any ViewController], isAppearing: Bool, automatic: Bool = true
  ) {
    for controller in controllers { begin(held, controller, isAppearing: isAppearing, automatic: automatic) }
  }

  /// Under the link lock: ``begin(_:_:isAppearing:automatic:)`` for
  /// `forwardingTargets(held, from: controller)`, without building that list.
  mutating func beginForwarding(_ held: LinkSection, from controller: any ViewController, isAppearing: Bool) {
    begin(held, controller, isAppearing: isAppearing, automatic: true)
    var stack: [any ViewController] = []
    AppearancePass.pushForwardedChildren(held, of: controller, onto: &stack)
    while let next = stack.popLast() {
      begin(held, next, isAppearing: isAppearing, automatic: true)
      AppearancePass.pushForwardedChildren(held, of: next, onto: &stack)
    }
  }

  /// Under the link lock: ``begin(_:_:isAppearing:automatic:)`` for
  /// the top controllers whose root views are in `view`'s hierarchy (and
  /// those their automatic forwarding reaches), without building that list
  /// (a window's whole tree appears or disappears this way).
  mutating func beginForwarding(_ held: LinkSection, in view: View, isAppearing: Bool) {
    for (_, controller) in view.topOwnedViews(held) {
      if let parent = controller.node[held].parent, !parent.shouldAutomaticallyForwardAppearanceMethods { continue }
      beginForwarding(held, from: controller, isAppearing: isAppearing)
    }
  }

  /// Under the link lock: ``begin(_:_:isAppearing:automatic:)`` for one controller.
  mutating func begin(_ held: LinkSection, _ controller: any ViewController, isAppearing: Bool, automatic: Bool = true)
  {
    let node = controller.node
    let effects = node[held].appearance.machine.begin(
      isAppearing: isAppearing, animated: animated, automatic: automatic)
    guard !effects.isEmpty else { return }
    let began = effects.contains { $0 == .willAppear || $0 == .willDisappear }
    // Most passes have two steps (one view leaves, one arrives): one allocation.
    if steps.isEmpty { steps.reserveCapacity(2) }
    steps.append(
      Entry(controller: controller, node: node, isAppearing: isAppearing, willEffects: effects, began: began))
    guard began else { return }
    let index = node.linkDomain
    if domain == nil, !severalDomains {
      domain = (index, TreeLock.domains.generation(index))
    } else if let domain, domain.index != index {
      self.domain = nil
      severalDomains = true
    }
  }

  var isEmpty: Bool { !steps.contains(where: \.began) }

  /// Delivers every will-hook (and any diagnostic), in order.
  nonisolated(nonsending) func deliverWill(in context: TransactionContext?) async {
    await AppearancePass.asHooks(of: context) {
      for step in steps {
        await step.controller.perform(step.willEffects, animated: animated, in: context)
      }
    }
  }

  /// The views are installed: delivers `viewIsAppearing` to each appearing
  /// controller that has not had it in this appearance (A2).
  nonisolated(nonsending) mutating func deliverIsAppearing(in context: TransactionContext?) async {
    guard steps.contains(where: { $0.began && $0.isAppearing }) else { return }
    updateSteps { step, held in
      step.decided = step.began && step.isAppearing ? step.node[held].appearance.machine.viewInstalled() : .none
    }
    await AppearancePass.asHooks(of: context) {
      for step in steps where !step.decided.isEmpty {
        await step.controller.perform(step.decided, animated: animated, in: context)
      }
    }
  }

  /// Ends each begun transition and delivers the did-hooks, in order.
  ///
  /// A controller whose transition was reversed meanwhile gets what its state
  /// machine says (A3). Clears `isMovingToParent`/`isMovingFromParent` flags
  /// that this appearance was carrying.
  nonisolated(nonsending) mutating func deliverDid(in context: TransactionContext?) async {
    guard !isEmpty else { return }
    updateSteps { step, held in
      if step.began { step.decided = step.node[held].appearance.machine.end() }
    }
    await AppearancePass.asHooks(of: context) {
      for step in steps where step.began {
        await step.controller.perform(step.decided, animated: animated, in: context)
      }
    }
    updateSteps { step, held in
      guard step.began else { return }
      if step.isAppearing {
        step.node[held].appearance.isMovingToParent = false
      } else {
        step.node[held].appearance.isMovingFromParent = false
      }
    }
  }

  /// Runs `body`, which only delivers hooks, marked once as inside `context`'s
  /// hooks (every hook in it would be marked the same way one by one).
  nonisolated(nonsending) static func asHooks(
    of context: TransactionContext?, _ body: nonisolated(nonsending) () async -> Void
  ) async {
    if let context { await context.withHookBinding(body) } else { await body() }
  }

  /// Will, is-appearing and did, with nothing in between.
  nonisolated(nonsending) mutating func deliverAll(in context: TransactionContext?) async {
    await deliverWill(in: context)
    await deliverIsAppearing(in: context)
    await deliverDid(in: context)
  }

  /// Under the link lock: `controller` and, if it forwards automatically, its
  /// children whose root views are installed in its hierarchy, recursively.
  static func forwardingTargets(_ held: LinkSection, from controller: any ViewController) -> [any ViewController] {
    var result: [any ViewController] = []
    appendForwarding(held, from: controller, into: &result)
    return result
  }

  /// Under the link lock: what `forwardingTargets(held, from:)` returns after
  /// `controller` itself (nothing, and no allocation, for a leaf).
  static func forwardingDescendants(_ held: LinkSection, of controller: any ViewController) -> [any ViewController] {
    var result: [any ViewController] = []
    appendForwarding(held, from: controller, into: &result, includingRoot: false)
    return result
  }

  /// Iterative (each controller before its children, children in order), so
  /// a tree of any depth is walked without growing the stack.
  private static func appendForwarding(
    _ held: LinkSection,
    from controller: any ViewController, into result: inout [any ViewController], includingRoot: Bool = true
  ) {
    if includingRoot { result.append(controller) }
    var stack: [any ViewController] = []
    pushForwardedChildren(held, of: controller, onto: &stack)
    while let next = stack.popLast() {
      result.append(next)
      pushForwardedChildren(held, of: next, onto: &stack)
    }
  }

  /// The children of `controller` that its appearance forwards to, pushed in
  /// reverse order (popped in `children` order).
  private static func pushForwardedChildren(
    _ held: LinkSection, of controller: any ViewController, onto stack: inout [any ViewController]
  ) {
    let node = controller.node
    guard !node[held].children.isEmpty, controller.shouldAutomaticallyForwardAppearanceMethods,
      let view = node[held].view
    else { return }
    for child in node[held].children.reversed() {
      guard let childView = child.node[held].view, view.isAncestorOrSelf(held, of: childView) else { continue }
      stack.append(child)
    }
  }
}
