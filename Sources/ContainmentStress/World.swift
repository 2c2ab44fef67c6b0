import Containment
import ContainmentTestKit

/// The controllers and windows one run works on.
///
/// Shape (two levels, so every cross-queue interaction is one the model can
/// name): each tree is a window whose root `R` holds two fixed containers,
/// `A` (forwards appearance automatically) and `M` (forwards it by hand,
/// A6), both installed. Leaves move between containers of the same kind, in
/// any tree: automatic leaves between the `A`s, manual leaves between the
/// `M`s. Strangers are never attached (misuse targets); the doomed tree is
/// torn down during setup (every later request naming it must fail).
final class World: Sendable {
  let controllers: [StressController]
  let windows: [Window]
  let roots: [Int]
  let autoContainers: [Int]
  let manualContainers: [Int]
  let autoLeaves: [Int]
  let manualLeaves: [Int]
  let strangers: [Int]
  let doomedRoot: Int
  let doomedLeaf: Int
  let doomedWindow: Window
  let environment: ContainmentEnvironment
  let indexByID: [ControllerID: Int]
  /// Built-in containers, one of each per tree, installed under the tree's
  /// root (ContainerKinds.swift).
  ///
  /// Not `StressController`s: their children are.
  let navigations: [NavigationController]
  let tabs: [TabBarController]
  let splits: [SplitViewController]
  /// Per tree: keeps `setStack` apart from the other requests on that stack (ContainerKinds.swift).
  let stackGates: [StackGate]
  /// Leaves that live only on navigation stacks (a pool shared by every tree's stack).
  let stackLeaves: [Int]
  /// Per tree: the tab leaves of that tree's tab controller (always all of them).
  let tabLeaves: [[Int]]
  /// Per tree: the split's primary and secondary columns.
  let splitColumns: [(primary: Int, secondary: Int)]
  /// Per tree: keeps `setTabs` apart from the other requests on that tab controller.
  let tabGates: [StackGate]
  /// Trees that merge into the main ones and split off again (HopKinds.swift).
  let hop: HopTrees
  /// Per tree: a custom container on the transaction scope and its leaves (ScopeKinds.swift).
  let scoped: ScopeTrees
  /// Deep stacks and wide containers beside the modelled trees (BulkKinds.swift).
  let bulk: BulkTrees
  /// The tree of `--fault hung-hook` (SupervisionKinds.swift), else nil.
  let supervised: SupervisedTree?
  /// The tree of `--fault slow-children` (SlowChildrenKinds.swift), else nil.
  let slow: SlowChildrenTree?
  /// Windows whose trees present and dismiss, and the controllers they present (PresentationKinds.swift).
  let presentation: PresentationTrees

  init(options: Options, environment: ContainmentEnvironment) {
    var controllers: [StressController] = []
    func make(_ name: String, forwards: Bool = true) -> Int {
      let controller = StressController(name: name, index: controllers.count, forwards: forwards)
      controller.node.environment = environment
      controllers.append(controller)
      return controller.index
    }
    var roots: [Int] = []
    var autoContainers: [Int] = []
    var manualContainers: [Int] = []
    var autoLeaves: [Int] = []
    var manualLeaves: [Int] = []
    for tree in 0..<options.trees {
      roots.append(make("R\(tree)"))
      autoContainers.append(make("A\(tree)"))
      manualContainers.append(make("M\(tree)", forwards: false))
    }
    for tree in 0..<options.trees {
      for leaf in 0..<options.leavesPerTree { autoLeaves.append(make("L\(tree).\(leaf)")) }
      for leaf in 0..<options.manualLeavesPerTree { manualLeaves.append(make("N\(tree).\(leaf)")) }
    }
    var stackLeaves: [Int] = []
    var tabLeaves: [[Int]] = []
    var splitColumns: [(primary: Int, secondary: Int)] = []
    for tree in 0..<options.trees {
      for leaf in 0..<3 { stackLeaves.append(make("V\(tree).\(leaf)")) }
      tabLeaves.append((0..<3).map { make("T\(tree).\($0)") })
      splitColumns.append((make("P\(tree)"), make("Q\(tree)")))
    }
    hop = HopTrees(trees: 3, environment: environment, make: { make($0) })
    scoped = ScopeTrees(trees: options.trees, make: { make($0) })
    bulk = BulkTrees(environment: environment)
    supervised =
      options.fault == .hungHook
      ? SupervisedTree(deadline: options.hookDeadline, teardown: options.supervisedTeardown) : nil
    slow = options.fault == .slowChildren ? SlowChildrenTree(deadline: options.hookDeadline) : nil
    presentation = PresentationTrees(environment: environment, make: { make($0) })
    self.stackLeaves = stackLeaves
    self.tabLeaves = tabLeaves
    self.splitColumns = splitColumns
    navigations = (0..<options.trees).map {
      NavigationController(name: "Nav\($0)", transitionDuration: .milliseconds(1))
    }
    tabs = (0..<options.trees).map { TabBarController(name: "Tabs\($0)") }
    splits = (0..<options.trees).map { SplitViewController(name: "Split\($0)") }
    stackGates = (0..<options.trees).map { _ in StackGate() }
    tabGates = (0..<options.trees).map { _ in StackGate() }
    for container in navigations as [any ViewController] + tabs + splits { container.node.environment = environment }
    strangers = [make("S0"), make("S1")]
    doomedRoot = make("D")
    doomedLeaf = make("DL")
    self.controllers = controllers
    self.roots = roots
    self.autoContainers = autoContainers
    self.manualContainers = manualContainers
    self.autoLeaves = autoLeaves
    self.manualLeaves = manualLeaves
    self.environment = environment
    self.windows = (0..<options.trees).map { _ in Window(environment: environment) }
    self.doomedWindow = Window(environment: environment)
    var indexByID: [ControllerID: Int] = [:]
    for controller in controllers { indexByID[controller.node.id] = controller.index }
    self.indexByID = indexByID
  }

  subscript(_ index: Int) -> StressController { controllers[index] }

  var containers: [Int] { autoContainers + manualContainers }

  func tree(of container: Int) -> Int? {
    autoContainers.firstIndex(of: container) ?? manualContainers.firstIndex(of: container)
  }

  /// Builds the initial trees, one step at a time (no concurrency yet, except
  /// racing first view loads).
  ///
  /// Throws if the runtime refuses a legal setup step.
  func setUp(_ rng: inout SplitMix64) async throws {
    // Concurrent first accesses: one load, one viewDidLoad (§1).
    await withTaskGroup(of: Void.self) { group in
      for controller in controllers {
        group.addTask { _ = await controller.view }
        group.addTask { _ = await controller.view }
      }
    }
    for (tree, window) in windows.enumerated() {
      let root = self[roots[tree]]
      try await window.setRootViewController(root)
      for container in [autoContainers[tree], manualContainers[tree]] {
        try await install(self[container], in: root)
      }
    }
    let trees = windows.count
    for (position, leaf) in autoLeaves.enumerated() {
      let container = self[autoContainers[position % trees]]
      if rng.chance(0.6) {
        try await install(self[leaf], in: container)
      } else {
        try await container.addChild(self[leaf])
      }
    }
    for (position, leaf) in manualLeaves.enumerated() {
      let container = self[manualContainers[position % trees]]
      try await install(self[leaf], in: container)
    }
    for (tree, container) in manualContainers.enumerated() {
      var batch = AppearanceBatch()
      for (position, leaf) in manualLeaves.enumerated() where position % trees == tree && rng.chance(0.5) {
        batch.appear(self[leaf])
      }
      try await self[container].commit(batch)
    }
    try await setUpContainers()
    try await setUpExtras()
    try await doomedWindow.setRootViewController(self[doomedRoot])
    try await install(self[doomedLeaf], in: self[doomedRoot])
    try await doomedWindow.tearDown()
  }

  /// Builds the trees of `model` (a snapshot taken at a quiescent point of an
  /// earlier run with the same options): the reducer starts its trials there.
  func setUp(from model: Model) async throws {
    await withTaskGroup(of: Void.self) { group in
      for controller in controllers { group.addTask { _ = await controller.view } }
    }
    try await setUpHopTrees(from: model)
    for (tree, window) in windows.enumerated() {
      let root = self[roots[tree]]
      try await window.setRootViewController(root)
      for container in [autoContainers[tree], manualContainers[tree]] {
        try await install(self[container], in: root)
      }
    }
    for container in containers {
      var batch = AppearanceBatch()
      for child in model.nodes[container].children {
        if model.nodes[child].installed {
          try await install(self[child], in: self[container])
        } else {
          try await self[container].addChild(self[child])
        }
        if !self[container].forwards, model.nodes[child].appearance.state == .appeared { batch.appear(self[child]) }
      }
      try await self[container].commit(batch)
    }
    for container in autoContainers where !model.nodes[container].installed {
      try await self[container].view.removeFromSuperview()
    }
    try await setUpContainers()
    try await setUpScopedTrees(from: model)
    try await bulk.setUp()
    try await supervised?.setUp()
    try await slow?.setUp()
    try await restoreContainers(model)
    try await setUpPresentations(from: model)
    try await doomedWindow.setRootViewController(self[doomedRoot])
    try await install(self[doomedLeaf], in: self[doomedRoot])
    try await doomedWindow.tearDown()
  }

  /// The UIKit three-step add: `addChild`, install the view, `didMove`.
  func install(_ child: StressController, in parent: StressController) async throws {
    try await parent.addChild(child)
    try await parent.view.addSubview(await child.view)
    await child.didMove(toParent: parent)
  }

  /// Ends every tree: windows torn down, detached controllers torn down, armed
  /// hooks dropped (they hold controllers).
  func tearDown() async {
    for controller in controllers { controller.armed.withLock { $0 = nil } }
    for window in windows + hop.windows + presentation.windows { try? await window.tearDown() }
    await bulk.tearDown()
    await supervised?.tearDown()
    await slow?.tearDown()
    // Whole detached trees first: a controller torn down while it has a
    // parent leaves it first (V3), which would change a tree still to be
    // torn down.
    let rest = navigations as [any ViewController] + tabs + splits + controllers
    for controller in rest where controller.parent == nil && controller.presentingViewController == nil {
      await controller.tearDown()
    }
    for controller in rest { await controller.tearDown() }
  }
}
