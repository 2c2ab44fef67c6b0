import Containment
import ContainmentTestKit

/// Windows released while their trees present or animate, and trees run as
/// services that are shut down before they start (§2 invariants, V3, V5),
/// beside the modelled trees, on controllers of their own:
/// 0. a presented chain (full screen, then a sheet) when the window goes;
///    shown again in a new window, the tree ends the chain first;
/// 1. a window released during an animated transition;
/// 2. a window released during an animated present;
/// 3. a `TreeService` shut down before it runs: its tree is torn down all
///    the same.
/// Every tree must end off screen and consistent; the leak check sees every
/// controller and window released.
struct ReleasedWindowKind: OperationKind {
  let name = OperationKindName.releasedWindow
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [], variant: rng.below(4))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let bulk = run.world.bulk
    let p = bulk.make("Released")
    let a = bulk.make("Released.a")
    let b = bulk.make("Released.b")
    do {
      if operation.variant == 3 {
        try await p.addChild(a)
        let service = TreeService(window: Window(environment: bulk.environment), root: p)
        service.shutdownGracefully()
        try await service.run()
        try await p.waitUntil(.tornDown)
        if !a.node.isTornDown { report("a child of a service shut down before it ran was not torn down", run) }
        return .succeeded
      }
      var window: Window? = Window(environment: bulk.environment)
      try await window?.setRootViewController(p)
      try await p.addChild(a)
      try await p.view.addSubview(await a.view)
      await a.didMove(toParent: p)
      switch operation.variant {
      case 0:
        try await p.present(b, style: .fullScreen, animated: false)
        let sheet = bulk.make("Released.sheet")
        try await b.present(sheet, style: .pageSheet, animated: false)
        window = nil
        check([p, a, b, sheet], "a window released with a presented chain", run)
        let next = Window(environment: bulk.environment)
        try await next.setRootViewController(p)
        if p.presentedViewController != nil || b.presentedViewController != nil {
          report("a tree shown again still presents what its released window showed", run)
        }
        let violations = p.checkInvariants() + b.checkInvariants() + sheet.checkInvariants()
        if !violations.isEmpty { report("a tree shown again after its window was released: \(violations)", run) }
        try await next.tearDown()
      case 1:
        try await p.addChild(b)
        var events = b.events().makeAsyncIterator()
        async let transition = p.transition(from: a, to: b, duration: .milliseconds(20))
        await appearing(&events)
        window = nil
        _ = try await transition.value
        check([p, a, b], "a window released during an animated transition", run)
      default:
        var events = b.events().makeAsyncIterator()
        async let presentation = p.present(b, style: .pageSheet, animated: true)
        await appearing(&events)
        window = nil
        _ = try await presentation.value
        check([p, a, b], "a window released during an animated present", run)
      }
      return .succeeded
    } catch {
      return outcome(of: error)
    }
  }

  /// Reads `events` until the controller begins to appear.
  private func appearing(_ events: inout LifecycleEvents.AsyncIterator) async {
    while let event = await events.next() {
      if case .viewWillAppear = event.kind { return }
    }
  }

  /// Once the window is released: every controller off screen, invariants hold.
  private func check(_ controllers: [PlainController], _ what: String, _ run: Run) {
    for controller in controllers {
      let violations = controller.checkInvariants()
      if !violations.isEmpty { report("\(what): \(controller.node.name): \(violations)", run) }
    }
  }

  private func report(_ message: String, _ run: Run) {
    run.report(Finding(category: .invariant, message: message))
  }
}
