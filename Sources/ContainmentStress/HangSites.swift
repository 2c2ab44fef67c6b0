import Containment

/// Where `--fault hung-hook` plants code that never returns: each kind of
/// call the gateway supervises, with the controller that owns it (the one a
/// late call must fault): the controller for its hooks and `loadView`, the
/// container for its delegate, its transition's animations and its scope's
/// body.
///
/// `nestedHook` is a child's `viewWillAppear` that hangs inside its container's
/// scope body: the child's call, not the body, is late.
enum HangSite: Int, Sendable, CaseIterable, Hashable {
  case viewWillAppear, viewDidAppear, loadView, shouldSelect, willShow, animations, scopeBody, nestedHook

  /// The call's name in the runtime's events.
  var hook: String {
    switch self {
    case .viewWillAppear, .nestedHook: "viewWillAppear"
    case .viewDidAppear: "viewDidAppear"
    case .loadView: "loadView"
    case .shouldSelect: "tabBarController(_:shouldSelect:)"
    case .willShow: "navigationController(_:willShow:animated:)"
    case .animations: "animations"
    case .scopeBody: "withTransaction"
    }
  }

  /// Its name in the report.
  var label: String {
    switch self {
    case .viewWillAppear, .viewDidAppear, .loadView, .animations: hook
    case .shouldSelect: "tab shouldSelect"
    case .willShow: "navigation willShow"
    case .scopeBody: "scope body"
    case .nestedHook: "viewWillAppear in a scope"
    }
  }

  /// For a site whose owner is being shown: whether its stream reports it
  /// appeared although the hung call faults it (`viewDidAppear` is announced
  /// before it runs); if not, a wait for `appeared` must throw
  /// `ContainmentError.faulted` rather than wait forever.
  ///
  /// Nil for the sites whose owner is not being shown.
  var ownerReportsAppeared: Bool? {
    switch self {
    case .viewDidAppear: true
    case .viewWillAppear, .loadView, .nestedHook: false
    case .shouldSelect, .willShow, .animations, .scopeBody: nil
    }
  }

  /// Whether `error`, thrown by the request that ran the hung call, is what
  /// that request throws when the call is no longer waited for: a scope
  /// whose body is abandoned throws `userCodeAbandoned`; the steps after a
  /// hung call may find its tree torn down.
  func expects(_ error: any Error, of owner: any ViewController) -> Bool {
    guard let error = error as? ContainmentError else { return false }
    switch error {
    case .userCodeAbandoned(let id, let call): return self == .scopeBody && id == owner.node.id && call == hook
    case .tornDown: return true
    default: return false
    }
  }

  /// Builds what the site needs under `parent` (a fresh controller, or a
  /// fresh container with children), with code that hangs if `hanging`, and
  /// returns the request that makes the runtime call that code.
  ///
  /// Nothing is called yet.
  func plant(id: Int, hanging: Bool, in parent: any ViewController, tree: SupervisedTree) async throws -> Planting {
    let environment = tree.environment
    let base = "Hang\(id)"
    let name = "\(base).\(hook)"
    let hangs = hanging ? name : nil
    let registry = tree.hangs
    func make(_ suffix: String) -> PlainController { PlainController(name: base + suffix, environment: environment) }
    switch self {
    case .nestedHook:
      let box = make(".box")
      let controller = HangingController(name: base, behaviour: hanging ? .hangInWillAppear : .plain, tree: tree)
      try await install(box, in: parent)
      return Planting(site: self, name: name, owner: controller, others: [parent, box]) {
        try await box.withTransaction { _ in
          try await box.addChild(controller)
          try await box.view.addSubview(await controller.view)
          await controller.didMove(toParent: box)
        }
      }
    case .viewWillAppear, .viewDidAppear, .loadView:
      let behaviour: HangingController.Behaviour
      switch self {
      case _ where !hanging: behaviour = .plain
      case .loadView: behaviour = .hangInLoadView
      case .viewWillAppear: behaviour = .hangInWillAppear
      default: behaviour = .hangInDidAppear
      }
      let controller = HangingController(name: base, behaviour: behaviour, tree: tree)
      if self == .loadView, tree.tearsDownHangs {
        // Loaded inside a transaction (a transition to it), which the
        // teardown waits for: a load outside any transaction is not
        // waited for, and its abandonment comes after the owner's stream
        // has ended (STRESS.md).
        let from = make(".0")
        try await install(from, in: parent)
        try await parent.addChild(controller)
        return Planting(site: self, name: name, owner: controller, others: [parent, from]) {
          _ = try await parent.transition(from: from, to: controller)
        }
      }
      try await parent.addChild(controller)
      if self == .loadView {
        // Loaded outside any transaction, as the UIKit three steps do. A
        // `loadView` no longer waited for leaves a plain view; the isolation
        // takes the controller away meanwhile.
        return Planting(site: self, name: name, owner: controller, others: [parent]) { _ = await controller.view }
      }
      return Planting(site: self, name: name, owner: controller, others: [parent]) {
        try await parent.view.addSubview(await controller.view)
        await controller.didMove(toParent: parent)
      }
    case .shouldSelect:
      let tabs = TabBarController(name: base + ".tabs")
      tree.track(tabs, label: tabs.node.name)
      let first = make(".0")
      let second = make(".1")
      try await tabs.setViewControllers([first, second])
      try await install(tabs, in: parent)
      let delegate = HangingTabDelegate(hangs: hangs, tree: tree)
      tabs.delegate = delegate
      return Planting(site: self, name: name, owner: tabs, others: [parent, first, second]) {
        // The delegate is held weakly: the request keeps it.
        defer { withExtendedLifetime(delegate) {} }
        _ = try await tabs.select(1).value
      }
    case .willShow:
      let navigation = NavigationController(name: base + ".nav", transitionDuration: .zero)
      tree.track(navigation, label: navigation.node.name)
      let bottom = make(".0")
      let top = make(".1")
      try await navigation.setViewControllers([bottom], animated: false)
      try await install(navigation, in: parent)
      let delegate = HangingNavigationDelegate(hangs: hangs, tree: tree)
      navigation.delegate = delegate
      return Planting(site: self, name: name, owner: navigation, others: [parent, bottom, top]) {
        defer { withExtendedLifetime(delegate) {} }
        _ = try await navigation.push(top, animated: false)
      }
    case .animations:
      let box = make(".box")
      let from = make(".0")
      let to = make(".1")
      try await install(box, in: parent)
      try await install(from, in: box)
      try await box.addChild(to)
      return Planting(site: self, name: name, owner: box, others: [parent, from, to]) {
        // Animations that ignore cancellation: the transition waits for them.
        _ = try await box.transition(from: from, to: to, duration: .milliseconds(1)) {
          if let hangs { await registry.hang(hangs) }
        }
      }
    case .scopeBody:
      let box = make(".box")
      let child = make(".0")
      try await install(box, in: parent)
      return Planting(site: self, name: name, owner: box, others: [parent, child]) {
        try await box.withTransaction { _ in
          try await box.addChild(child)
          if let hangs { await registry.hang(hangs) }
        }
      }
    }
  }

  /// The UIKit three-step add.
  private func install(_ child: any ViewController, in parent: any ViewController) async throws {
    try await parent.addChild(child)
    try await parent.view.addSubview(await child.view)
    await child.didMove(toParent: parent)
  }
}

/// A hang planted at one site, not yet reached.
struct Planting: Sendable {
  let site: HangSite
  /// The hung call, as `SupervisedTree.hang` names it.
  let name: String
  /// The controller the late call must fault.
  let owner: any ViewController
  /// Controllers of the site that must not be faulted.
  let others: [any ViewController]
  /// Makes the runtime call the hung code; returns once the runtime stops
  /// waiting for it.
  let request: @Sendable () async throws -> Void

  init(
    site: HangSite, name: String, owner: any ViewController, others: [any ViewController],
    request: @escaping @Sendable () async throws -> Void
  ) {
    self.site = site
    self.name = name
    self.owner = owner
    self.others = others
    self.request = request
  }

  /// The first fault the owner's stream reports from now on.
  func firstFault() -> Task<LifecycleEvent.Kind?, Never> { ContainmentStress.firstFault(of: owner) }
}

/// The first fault `controller`'s stream reports from now on
/// (`hookTimedOut` or `hookAbandoned`), or nil if it ends first (or the
/// task is cancelled).
func firstFault(of controller: any ViewController) -> Task<LifecycleEvent.Kind?, Never> {
  let events = controller.events(policy: .keepNewest(256))
  return Task {
    for await event in events {
      switch event.kind {
      case .hookTimedOut, .hookAbandoned: return event.kind
      default: continue
      }
    }
    return nil
  }
}
