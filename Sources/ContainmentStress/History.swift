import Containment

/// What the checks need about one epoch of a run (from one quiescent point to
/// the next, or to the end), copied out of the run so that the world can be
/// released (and the leak check can see it go).
///
/// The fixed facts of the world (names, roots, containers) come with every
/// epoch; what the epoch recorded is dropped once it is checked.
struct History: Sendable {
  var names: [String]
  var ids: [ControllerID]
  var indexByID: [ControllerID: Int]
  /// Each controller's events in this epoch, from its recorder (snapshot and
  /// terminal markers removed).
  ///
  /// Continues the previous epoch's.
  var events: [[LifecycleEvent]]
  /// Markers the recorders saw (they must see none but `terminated`).
  var recorderMarkers: [String] = []
  /// Each controller's hooks run in this epoch, in order.
  var hookLogs: [[LifecycleEvent.Kind]]
  /// The transactions replayed are those whose events fall in
  /// `replayStart..<replayEnd` (the workload's part of the epoch: setup and
  /// teardown are not replayed).
  var replayStart: Duration = .zero
  var replayEnd: Duration = .zero
  /// The trees at the epoch's start and at its end (both quiescent points).
  var initial: Model
  var final: Model
  var registered: [TransactionID: RegisteredTransaction] = [:]
  var unidentified: [UnidentifiedRequest] = []
  var dismissCalls: [DismissCall] = []
  /// The quiescent point the epoch starts from: where the reducer starts its trials.
  var snapshots: [(Duration, Model)] = []
  var records: [OperationRecord] = []
  var watched: [(TransactionID, Bool?)] = []
  /// Controllers whose post-setup events come from outside any transaction (strangers).
  var strangers: Set<Int>
  /// Controllers that may leave the window without hooks: presented ones between the top of a dismissed chain and its presenter (P4).
  var leaveSilently: Set<Int>
  /// Per tree: the root (its recorder dates the window's trait changes).
  var roots: [Int]
  /// The built-in containers themselves (no recorder): tree subscribers may see their events.
  var containerIDs: Set<ControllerID>
  /// Their names, for messages.
  var containerNames: [ControllerID: String]

  func name(_ index: Int) -> String { names[index] }
  func name(_ id: ControllerID?) -> String {
    guard let id else { return "nil" }
    return indexByID[id].map { names[$0] } ?? containerNames[id] ?? "\(id)"
  }

  /// The fixed facts of `world`, with no epoch recorded yet.
  init(world: World, initial: Model) {
    names = world.controllers.map(\.node.name)
    ids = world.controllers.map(\.node.id)
    indexByID = world.indexByID
    events = Array(repeating: [], count: world.controllers.count)
    hookLogs = events.map { _ in [] }
    self.initial = initial
    final = initial
    strangers = Set(world.strangers)
    leaveSilently = Set(world.presentation.presentables + world.presentation.inner)
    roots = world.roots
    let containers = world.navigations as [any ViewController] + world.tabs + world.splits
    containerIDs = Set(containers.map(\.node.id))
    containerNames = Dictionary(uniqueKeysWithValues: containers.map { ($0.node.id, $0.node.name) })
  }

  /// The same world with nothing recorded: what a kept epoch keeps for the
  /// reducer (its operations and the quiescent point it starts from).
  var evidence: History {
    var kept = self
    kept.events = events.map { _ in [] }
    kept.hookLogs = kept.events.map { _ in [] }
    kept.registered = [:]
    kept.unidentified = []
    kept.dismissCalls = []
    kept.watched = []
    return kept
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
      node.isWindowRoot = (world.windows + world.hop.windows + world.presentation.windows).contains {
        $0.rootViewController === controller
      }
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
    model.hopWindowRoots = world.hop.windows.map { $0.rootViewController.flatMap { world.indexByID[$0.node.id] } }
    model.snapshotPresentations(of: world)
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
    case .childAdded, .childRemoved, .transitionBegan, .transitionEnded, .batchCommitted, .presented, .dismissed: true
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
