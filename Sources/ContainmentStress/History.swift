import Containment

/// Everything the checks need, copied out of a finished run, so that the
/// world can be released (and the leak check can see it go).
struct History: Sendable {
  var names: [String]
  var ids: [ControllerID]
  var indexByID: [ControllerID: Int]
  /// Each controller's full stream, from its recorder (snapshot and terminal markers removed).
  var events: [[LifecycleEvent]]
  /// Markers the recorders saw (they must see none but `terminated`).
  var recorderMarkers: [String]
  var hookLogs: [[LifecycleEvent.Kind]]
  var setupEnd: Duration
  var workEnd: Duration
  var initial: Model
  var final: Model
  var registered: [TransactionID: RegisteredTransaction]
  var unidentified: [UnidentifiedRequest]
  var snapshots: [(Duration, Model)]
  var records: [OperationRecord]
  var watched: [(TransactionID, Bool?)]
  /// Controllers whose post-setup events come from outside any transaction (strangers).
  var strangers: Set<Int>
  /// Per tree: the root (its recorder dates the window's trait changes).
  var roots: [Int]
  /// The built-in containers themselves (no recorder): tree subscribers may see their events.
  var containerIDs: Set<ControllerID>
  /// Their names, for messages.
  var containerNames: [ControllerID: String]
  var others: [(role: Subscription.Role, controller: Int, isTree: Bool, events: [LifecycleEvent])]

  func name(_ index: Int) -> String { names[index] }
  func name(_ id: ControllerID?) -> String {
    guard let id else { return "nil" }
    return indexByID[id].map { names[$0] } ?? containerNames[id] ?? "\(id)"
  }
}

extension Model {
  /// The runtime's links and appearance states right now (call at a quiescent point).
  static func snapshot(of world: World) -> Model {
    let nodes = world.controllers.map { controller -> Model.Node in
      var node = Model.Node()
      node.parent = controller.parent.flatMap { world.indexByID[$0.node.id] }
      node.children = controller.children.compactMap { world.indexByID[$0.node.id] }
      node.installed = controller.parent != nil && controller.viewIfLoaded?.superview != nil
      node.isWindowRoot = world.windows.contains { $0.rootViewController === controller }
      node.forwards = controller.forwards
      node.appearance.state = controller.node.appearanceState
      return node
    }
    var model = Model(nodes: nodes, ids: world.controllers.map(\.node.id))
    model.stacks = world.navigations.map { $0.viewControllers.compactMap { world.indexByID[$0.node.id] } }
    model.navigationIDs = world.navigations.map(\.node.id)
    model.tabList = world.tabs.map { $0.viewControllers.compactMap { world.indexByID[$0.node.id] } }
    model.selectedTab = world.tabs.map { $0.selectedViewController.flatMap { world.indexByID[$0.node.id] } }
    model.tabIDs = world.tabs.map(\.node.id)
    model.compact = world.windows.map { $0.traitCollection.horizontalSizeClass == .compact }
    model.splitPrimary = world.splitColumns.map(\.primary)
    model.splitSecondary = world.splitColumns.map(\.secondary)
    model.splitCollapsed = world.splits.map(\.isCollapsed)
    model.splitShown = world.splits.map { $0.shownColumn ?? .primary }
    return model
  }
}

extension LifecycleEvent.Kind {
  /// True for events that stand for a hook call (as opposed to container events and markers).
  var isHook: Bool {
    switch self {
    case .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
      .willMove, .didMove, .traitCollectionDidChange:
      true
    default:
      false
    }
  }

  /// Events a container emits about its own transactions (as opposed to hooks delivered to it).
  var isContainerEvent: Bool {
    switch self {
    case .childAdded, .childRemoved, .transitionBegan, .transitionEnded, .batchCommitted: true
    default: false
    }
  }

  var isMarker: Bool {
    switch self {
    case .subscribed, .eventsLost, .lagged, .terminated: true
    default: false
    }
  }
}
