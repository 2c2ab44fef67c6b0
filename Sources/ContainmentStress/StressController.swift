import Containment
import ContainmentLocking

/// The harness's controller: records every hook it receives, in order, and
/// can be armed to make a request from inside its next `willMove(toParent:)`
/// hook (a nested request, R2).
///
/// The hook log is the controller's own account of what ran on it; the
/// checks compare it with the event streams and with the model.
actor StressController: ViewController {
  nonisolated let node: ControllerNode
  /// Position in the world's controller list: what operations and the model use.
  nonisolated let index: Int
  nonisolated let forwards: Bool
  /// Every hook, as the event kind it should have emitted, in the order it ran.
  nonisolated let hookLog = Locked<[LifecycleEvent.Kind]>([])
  /// Run once, inside the next `viewWillMove(toParent:)` with a non-nil parent.
  nonisolated let armed = Locked<(@Sendable (any ViewController) async -> Void)?>(nil)
  /// Run once, inside the next `viewWillDisappear` (after it is recorded).
  nonisolated let armedDisappear = Locked<(@Sendable () async -> Void)?>(nil)
  /// Run once, inside the next `viewDidAppear` (after it is recorded): a
  /// request from a did-hook, which must still wait for what the running
  /// transaction owes this controller (R2).
  nonisolated let armedDidAppear = Locked<(@Sendable () async -> Void)?>(nil)

  /// Refuses interactive dismissals (P6; PresentationKinds.swift).
  nonisolated let modal = Locked(false)
  nonisolated var isModalInPresentation: Bool { modal.withLock { $0 } }

  /// The hooks of this controller awaiting an armed request right now, for
  /// the watchdog's report.
  nonisolated let awaiting = Locked<[String]>([])

  /// Self-test (`--fault stuck-hook`): the next `willMove(toParent:)` never returns.
  nonisolated let stuck = Locked(false)

  init(name: String, index: Int, forwards: Bool) {
    self.node = ControllerNode(name: name)
    self.index = index
    self.forwards = forwards
  }

  nonisolated var shouldAutomaticallyForwardAppearanceMethods: Bool { forwards }

  private func record(_ kind: LifecycleEvent.Kind) {
    hookLog.withLock { $0.append(kind) }
  }

  /// Runs an armed `action` from inside `hook`, listed in `awaiting` meanwhile.
  private func run(armed action: () async -> Void, in hook: String) async {
    awaiting.withLock { $0.append(hook) }
    await action()
    awaiting.withLock { hooks in
      if let index = hooks.firstIndex(of: hook) { hooks.remove(at: index) }
    }
  }

  func viewDidLoad() async { record(.viewDidLoad) }
  func viewWillAppear(_ animated: Bool) async { record(.viewWillAppear(animated: animated)) }
  func viewIsAppearing(_ animated: Bool) async { record(.viewIsAppearing(animated: animated)) }
  func viewDidAppear(_ animated: Bool) async {
    record(.viewDidAppear(animated: animated))
    guard
      let action = armedDidAppear.withLock({ action in
        defer { action = nil }
        return action
      })
    else { return }
    await run(armed: action, in: "viewDidAppear")
  }
  func viewWillDisappear(_ animated: Bool) async {
    record(.viewWillDisappear(animated: animated))
    guard
      let action = armedDisappear.withLock({ action in
        defer { action = nil }
        return action
      })
    else { return }
    await run(armed: action, in: "viewWillDisappear")
  }
  func viewDidDisappear(_ animated: Bool) async { record(.viewDidDisappear(animated: animated)) }
  func viewDidMove(toParent parent: (any ViewController)?) async { record(.didMove(toParent: parent?.node.id)) }
  func traitCollectionDidChange(_ previous: TraitCollection?) async {
    record(.traitCollectionDidChange(traitCollection))
  }

  func viewWillMove(toParent parent: (any ViewController)?) async {
    record(.willMove(toParent: parent?.node.id))
    if stuck.withLock({ $0 }) {
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }
    guard let parent,
      let action = armed.withLock({ action in
        defer { action = nil }
        return action
      })
    else { return }
    await run(armed: { await action(parent) }, in: "viewWillMove(toParent: \(parent.node.name))")
  }

  // MARK: Calls made from this controller's own actor

  // The verbs that run a hook at once run on their caller's executor: these
  // make them from a controller's actor, as a container's hook code does,
  // next to the same calls made from outside.

  /// `child.beginAppearanceTransition`, called on this controller's actor.
  func forwardBegin(to child: StressController, appearing: Bool, animated: Bool) async {
    await child.beginAppearanceTransition(appearing, animated: animated)
  }

  /// `child.endAppearanceTransition()`, called on this controller's actor.
  func forwardEnd(to child: StressController) async {
    await child.endAppearanceTransition()
  }

  /// `willMove(toParent: nil)` on itself, called on its own actor.
  func announceLeaving() async {
    await willMove(toParent: nil)
  }
}
