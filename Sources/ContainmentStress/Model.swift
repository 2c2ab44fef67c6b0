import Containment

/// A pure, sequential model of the runtime's containment and appearance
/// rules (§2, §3, §4): what each step must do to the links and which
/// events it must emit, controller by controller.
///
/// The linearizability check replays the observed transactions on it, one at
/// a time; a concurrent runtime is correct when some such sequential replay
/// produces exactly the events every controller saw.
struct Model: Sendable {
  struct Appearance: Sendable, Hashable {
    var state: AppearanceState = .disappeared
    var level = 0
    var animated = false
    var isAppearingDelivered = false
  }

  struct Node: Sendable, Hashable {
    var parent: Int?
    var children: [Int] = []
    /// The root view is a subview of the parent's root view.
    var installed = false
    /// The root of a window (its view is in the window).
    var isWindowRoot = false
    var forwards = true
    var appearance = Appearance()
    /// Modal presentation (PresentationKinds.swift): the links, the style,
    /// whether this window layer is off screen under a `.fullScreen`
    /// presentation, and the layer this presented controller took off screen.
    var presentation = ModelPresentation()
  }

  enum Effect: Sendable, Hashable {
    case willAppear, isAppearing, didAppear, willDisappear, didDisappear
    case unbalanced(UnbalancedAppearanceTransition)
  }

  var nodes: [Node]
  let ids: [ControllerID]
  /// Built-in containers, per tree: each navigation stack (root first) and
  /// its controller's id; each tab controller's tabs, selection and id.
  var stacks: [[Int]] = []
  var navigationIDs: [ControllerID] = []
  var tabList: [[Int]] = []
  var selectedTab: [Int?] = []
  var tabIDs: [ControllerID] = []
  /// Per tree: the window's size class, the split's columns (fixed), whether
  /// it is collapsed and the column it shows while collapsed.
  var compact: [Bool] = []
  var splitPrimary: [Int] = []
  var splitSecondary: [Int] = []
  var splitCollapsed: [Bool] = []
  var splitShown: [SplitColumn] = []
  /// Per hop window (HopKinds.swift): its root.
  var hopWindowRoots: [Int?] = []
  /// Per presentation window (PresentationKinds.swift): its root.
  var presentationWindowRoots: [Int?] = []
  /// Controllers that remove themselves in their next `viewWillDisappear` (`ModelStep.arm`).
  var armed: Set<Int> = []

  /// Events the steps produced, per controller, in order.
  var emitted: [Int: [LifecycleEvent.Kind]] = [:]

  init(nodes: [Node], ids: [ControllerID]) {
    self.nodes = nodes
    self.ids = ids
  }

  mutating func emit(_ index: Int, _ kind: LifecycleEvent.Kind) {
    emitted[index, default: []].append(kind)
  }

  // MARK: Queries

  func isInWindow(_ index: Int) -> Bool {
    let node = nodes[index]
    if node.isWindowRoot || node.presentation.presenting != nil { return !node.presentation.covered }
    guard node.installed else { return false }
    // Installed without a parent the model holds: a built-in container's child, always on screen.
    guard let parent = node.parent else { return true }
    return isInWindow(parent)
  }

  /// `index` and, if it forwards automatically, its installed children, recursively.
  func forwardingTargets(from index: Int) -> [Int] {
    var result = [index]
    guard nodes[index].forwards else { return result }
    for child in nodes[index].children where nodes[child].installed {
      result += forwardingTargets(from: child)
    }
    return result
  }

  /// The controllers whose appearance follows `index`'s root view entering or
  /// leaving a window: none if its parent forwards by hand (A6).
  func forwardingTargets(inViewOf index: Int) -> [Int] {
    if let parent = nodes[index].parent, !nodes[parent].forwards { return [] }
    return forwardingTargets(from: index)
  }

  // MARK: The appearance state machine (A2–A4)

  private mutating func begin(_ index: Int, appearing: Bool, animated: Bool, automatic: Bool) -> [Effect] {
    var machine = nodes[index].appearance
    defer { nodes[index].appearance = machine }
    defer { if machine.level > 0 { machine.animated = animated } }
    switch (machine.state, appearing) {
    case (.disappeared, true), (.disappearing, true):
      if machine.state == .disappeared { machine.level = 1 }
      machine.state = .appearing
      machine.isAppearingDelivered = false
      return [.willAppear]
    case (.appeared, false), (.appearing, false):
      if machine.state == .appeared { machine.level = 1 }
      machine.state = .disappearing
      return [.willDisappear]
    case (.appearing, true), (.disappearing, false):
      if automatic { return [] }
      machine.level += 1
      return [.unbalanced(.nestedBegin(isAppearing: appearing))]
    case (.appeared, true), (.disappeared, false):
      return automatic ? [] : [.unbalanced(.alreadyInState(machine.state))]
    }
  }

  private mutating func viewInstalled(_ index: Int) -> [Effect] {
    guard nodes[index].appearance.state == .appearing, !nodes[index].appearance.isAppearingDelivered else { return [] }
    nodes[index].appearance.isAppearingDelivered = true
    return [.isAppearing]
  }

  private mutating func end(_ index: Int) -> [Effect] {
    guard nodes[index].appearance.level > 0 else { return [.unbalanced(.endWithoutBegin)] }
    nodes[index].appearance.level -= 1
    guard nodes[index].appearance.level == 0 else { return [] }
    switch nodes[index].appearance.state {
    case .appearing:
      let installed = viewInstalled(index)
      nodes[index].appearance.state = .appeared
      return installed + [.didAppear]
    case .disappearing:
      nodes[index].appearance.state = .disappeared
      return [.didDisappear]
    case .appeared, .disappeared:
      return []
    }
  }

  private mutating func perform(_ index: Int, _ effects: [Effect], animated: Bool) {
    for effect in effects {
      switch effect {
      case .willAppear: emit(index, .viewWillAppear(animated: animated))
      case .isAppearing: emit(index, .viewIsAppearing(animated: animated))
      case .didAppear: emit(index, .viewDidAppear(animated: animated))
      case .willDisappear:
        emit(index, .viewWillDisappear(animated: animated))
        // An armed controller calls `willMove(toParent: nil)` from the hook; its removal is queued (R2).
        if armed.remove(index) != nil { emit(index, .willMove(toParent: nil)) }
      case .didDisappear: emit(index, .viewDidDisappear(animated: animated))
      case .unbalanced(let reason): emit(index, .unbalancedAppearanceTransition(reason))
      }
    }
  }

  /// One coordinated appearance change (the runtime's appearance pass).
  struct Pass {
    var entries: [(index: Int, appearing: Bool)] = []
    var willEffects: [(index: Int, effects: [Effect])] = []
    let animated: Bool
  }

  mutating func begin(_ pass: inout Pass, _ targets: [Int], appearing: Bool, automatic: Bool = true) {
    for index in targets {
      let effects = begin(index, appearing: appearing, animated: pass.animated, automatic: automatic)
      guard !effects.isEmpty else { continue }
      if effects.contains(where: { $0 == .willAppear || $0 == .willDisappear }) {
        pass.entries.append((index, appearing))
      }
      pass.willEffects.append((index, effects))
    }
  }

  mutating func deliverWill(_ pass: Pass) {
    for (index, effects) in pass.willEffects { perform(index, effects, animated: pass.animated) }
  }

  mutating func deliverIsAppearing(_ pass: Pass) {
    var all: [(Int, [Effect])] = []
    for entry in pass.entries { all.append((entry.index, entry.appearing ? viewInstalled(entry.index) : [])) }
    for (index, effects) in all { perform(index, effects, animated: pass.animated) }
  }

  mutating func deliverDid(_ pass: Pass) {
    var all: [(Int, [Effect])] = []
    for entry in pass.entries { all.append((entry.index, end(entry.index))) }
    for (index, effects) in all { perform(index, effects, animated: pass.animated) }
  }

  mutating func deliverAll(_ pass: Pass) {
    deliverWill(pass)
    deliverIsAppearing(pass)
    deliverDid(pass)
  }

  // MARK: Built-in containers

  /// `NavigationController.changeStack`: removed `willMove(nil)`, added
  /// `willMove(nav)`, old top `viewWillDisappear`, new top `viewWillAppear`,
  /// `viewIsAppearing`, old top `viewDidDisappear`, new top `viewDidAppear`,
  /// removed `didMove(nil)`, added `didMove(nav)` (the navigation controller is
  /// always on screen in the world, and every view is loaded at setup).
  private mutating func changeStack(tree: Int, _ change: ModelStep.StackChange, animated: Bool) throws(Refusal) {
    let old = stacks[tree]
    if case .interactivePop(let finish) = change {
      try interactivePop(tree: tree, finish: finish)
      return
    }
    let new: [Int]
    switch change {
    case .push(let leaf):
      guard !old.contains(leaf) else { throw Refusal(description: "#\(leaf) is already on the stack") }
      new = old + [leaf]
    case .pop:
      guard old.count >= 2 else { throw Refusal(description: "cannot pop the root") }
      new = Array(old.dropLast())
    case .popTo(let leaf):
      guard let position = old.firstIndex(of: leaf) else { throw Refusal(description: "#\(leaf) is not on the stack") }
      new = Array(old[...position])
    case .popToRoot:
      guard let root = old.first else { throw Refusal(description: "empty stack") }
      new = [root]
    case .set(let list):
      new = list
    case .interactivePop:
      return
    }
    guard !new.isEmpty || old.isEmpty, Set(new).count == new.count else { throw Refusal(description: "bad stack") }
    let removed = old.filter { !new.contains($0) }
    let added = new.filter { !old.contains($0) }
    for child in added
    where stacks.contains(where: { $0.contains(child) }) || tabList.contains(where: { $0.contains(child) }) {
      throw Refusal(description: "#\(child) is on another stack or has another parent")
    }
    for child in removed { emit(child, .willMove(toParent: nil)) }
    for child in added { emit(child, .willMove(toParent: navigationIDs[tree])) }
    if case .set = change {
      endPresentations(from: removed, reason: .replaced)
    } else {
      endPresentations(from: removed, reason: .popped)
    }
    let oldTop = old.last
    let newTop = new.last
    var pass = Pass(animated: animated)
    if oldTop != newTop {
      if let oldTop, nodes[oldTop].installed { begin(&pass, [oldTop], appearing: false) }
      if let newTop {
        nodes[newTop].installed = true
        begin(&pass, [newTop], appearing: true)
      }
    }
    deliverWill(pass)
    deliverIsAppearing(pass)
    for child in old + added where child != newTop { nodes[child].installed = false }
    stacks[tree] = new
    deliverDid(pass)
    for child in removed { emit(child, .didMove(toParent: nil)) }
    for child in added { emit(child, .didMove(toParent: navigationIDs[tree])) }
  }

  /// `NavigationController.interactivePop` (N7) on `[.., A, B]`, always
  /// animated: A's view is installed, `B.viewWillDisappear`,
  /// `A.viewWillAppear`, `A.viewIsAppearing`; then, finished: B's view
  /// removed, `B.viewDidDisappear`, `A.viewDidAppear`, the stack drops B,
  /// `B.willMove(nil)`, `B.didMove(nil)`; cancelled (or the driver threw): the
  /// reversal, `A.viewWillDisappear`, A's view removed, `A.viewDidDisappear`,
  /// `B.viewWillAppear`, `B.viewIsAppearing`, `B.viewDidAppear`.
  private mutating func interactivePop(tree: Int, finish: Bool) throws(Refusal) {
    let old = stacks[tree]
    guard old.count >= 2 else { throw Refusal(description: old.isEmpty ? "empty stack" : "cannot pop the root") }
    let popping = old[old.count - 1]
    let revealing = old[old.count - 2]
    var start = Pass(animated: true)
    if nodes[popping].installed { begin(&start, forwardingTargets(from: popping), appearing: false) }
    nodes[revealing].installed = true
    begin(&start, forwardingTargets(from: revealing), appearing: true)
    deliverWill(start)
    deliverIsAppearing(start)
    if finish {
      nodes[popping].installed = false
      deliverDid(start)
      stacks[tree] = Array(old.dropLast())
      emit(popping, .willMove(toParent: nil))
      endPresentations(from: [popping], reason: .popped)
      emit(popping, .didMove(toParent: nil))
    } else {
      var back = Pass(animated: true)
      begin(&back, forwardingTargets(from: revealing), appearing: false)
      deliverWill(back)
      nodes[revealing].installed = false
      deliverDid(back)
      var again = Pass(animated: true)
      if nodes[popping].installed { begin(&again, forwardingTargets(from: popping), appearing: true) }
      deliverAll(again)
    }
  }

  /// `SplitViewController.layoutColumns` (S1, S2; the split is always on
  /// screen and laid out): compact shows one column (at a collapse the
  /// primary, unless a column is requested), regular both; the leaving
  /// column's `viewWillDisappear`, the joining one's `viewWillAppear` and
  /// `viewIsAppearing`, then the leaving one's view removed, its
  /// `viewDidDisappear`, the joining one's `viewDidAppear`.
  private mutating func layoutSplit(tree: Int, showing requested: SplitColumn?, compact: Bool) {
    let primary = splitPrimary[tree]
    let secondary = splitSecondary[tree]
    var shown = requested ?? splitShown[tree]
    if compact, !splitCollapsed[tree], requested == nil { shown = .primary }
    let desired = compact ? [shown == .primary ? primary : secondary] : [primary, secondary]
    let leaving = [primary, secondary].filter { nodes[$0].installed && !desired.contains($0) }
    var pass = Pass(animated: false)
    for column in leaving { begin(&pass, forwardingTargets(from: column), appearing: false) }
    for column in desired where !nodes[column].installed {
      nodes[column].installed = true
      begin(&pass, forwardingTargets(from: column), appearing: true)
    }
    splitCollapsed[tree] = compact
    splitShown[tree] = shown
    deliverWill(pass)
    deliverIsAppearing(pass)
    for column in leaving { nodes[column].installed = false }
    deliverDid(pass)
  }

  /// `TabBarController.switchSelection` (B2): old `viewWillDisappear`, new
  /// `viewWillAppear`, new `viewIsAppearing`, old `viewDidDisappear`, new
  /// `viewDidAppear`; nothing when the selection does not change.
  private mutating func switchTab(tree: Int, to new: Int) {
    let old = selectedTab[tree]
    selectedTab[tree] = new
    var appearing = Pass(animated: false)
    var disappearing = Pass(animated: false)
    var changed = false
    if !nodes[new].installed {
      nodes[new].installed = true
      begin(&appearing, [new], appearing: true)
      changed = true
    }
    let leaving = old.flatMap { $0 != new && nodes[$0].installed ? $0 : nil }
    if let leaving {
      begin(&disappearing, [leaving], appearing: false)
      changed = true
    }
    guard changed else { return }
    deliverWill(disappearing)
    deliverWill(appearing)
    deliverIsAppearing(appearing)
    if let leaving { nodes[leaving].installed = false }
    deliverDid(disappearing)
    deliverDid(appearing)
  }

  // MARK: Hop windows and custom containers

  /// `Window.setRootViewController` on hop window `window`: nothing if the
  /// root stays; else the old root's tree disappears (will, did), then the
  /// new root's appears (will, `viewIsAppearing`, did).
  private mutating func setRoot(window: Int, root: Int?, animated: Bool) throws(Refusal) {
    let old = hopWindowRoots[window]
    guard old != root else { return }
    if let root {
      guard nodes[root].parent == nil, !nodes[root].isWindowRoot else {
        throw Refusal(description: "#\(root) has a parent or a window")
      }
    }
    if let old {
      var pass = Pass(animated: animated)
      begin(&pass, forwardingTargets(from: old), appearing: false)
      nodes[old].isWindowRoot = false
      hopWindowRoots[window] = nil
      deliverAll(pass)
    }
    guard let root else { return }
    nodes[root].isWindowRoot = true
    hopWindowRoots[window] = root
    var pass = Pass(animated: animated)
    begin(&pass, forwardingTargets(from: root), appearing: true)
    deliverAll(pass)
  }

  /// The children-change engine (`ChildrenChange`, R6): `childAdded` for the
  /// joining children, `willMove(nil)` to the leaving ones, `willMove(container)`
  /// to the joining ones; the will-hooks of the children hidden, then of those
  /// shown; `viewIsAppearing`; hidden views removed, leaving children
  /// unlinked, `childRemoved`; the did-hooks; `didMove(nil)` to the leaving
  /// ones, `didMove(container)` to the joining ones.
  private mutating func changeChildren(container: Int, children: [Int], shown: [Int], animated: Bool) throws(Refusal) {
    guard Set(children).count == children.count, shown.allSatisfy(children.contains) else {
      throw Refusal(description: "bad change")
    }
    let old = nodes[container].children
    let added = children.filter { !old.contains($0) }
    let removed = old.filter { !children.contains($0) }
    for child in added where nodes[child].parent != nil || nodes[child].isWindowRoot || child == container {
      throw Refusal(description: "#\(child) cannot join")
    }
    nodes[container].children = children
    for child in added { nodes[child].parent = container }
    for child in added { emit(container, .childAdded(ids[child])) }
    for child in removed { emit(child, .willMove(toParent: nil)) }
    for child in added { emit(child, .willMove(toParent: ids[container])) }
    endPresentations(from: removed, reason: .replaced)
    let onScreen = isInWindow(container)
    let hidden = (old + added).filter { !shown.contains($0) && nodes[$0].installed }
    var pass = Pass(animated: animated)
    if onScreen { for child in hidden { begin(&pass, forwardingTargets(from: child), appearing: false) } }
    for child in shown where !nodes[child].installed {
      nodes[child].installed = true
      if onScreen { begin(&pass, forwardingTargets(from: child), appearing: true) }
    }
    deliverWill(pass)
    deliverIsAppearing(pass)
    for child in hidden { nodes[child].installed = false }
    for child in removed { nodes[child].parent = nil }
    for child in removed { emit(container, .childRemoved(ids[child], reason: .replaced)) }
    deliverDid(pass)
    for child in removed { emit(child, .didMove(toParent: nil)) }
    for child in added { emit(child, .didMove(toParent: ids[container])) }
  }

  /// `removeFromParent` (`requested`) or the removal half of a move
  /// (`moved`): the child's view leaves (disappearing if on screen), the
  /// child is unlinked, `childRemoved`, the did-hooks, `didMove(nil)`.
  private mutating func remove(parent: Int, child: Int, reason: RemovalReason) {
    endPresentations(from: [child], reason: reason)
    var pass = Pass(animated: false)
    if nodes[child].installed {
      if isInWindow(parent) { begin(&pass, forwardingTargets(inViewOf: child), appearing: false) }
      nodes[child].installed = false
    }
    nodes[parent].children.removeAll { $0 == child }
    nodes[child].parent = nil
    emit(parent, .childRemoved(ids[child], reason: reason))
    deliverAll(pass)
    emit(child, .didMove(toParent: nil))
  }

  // MARK: Steps

  /// Why a step cannot run in the model's current state (the runtime must
  /// then have refused it).
  struct Refusal: Error, CustomStringConvertible {
    var description: String
  }

  /// Applies one step, appending its events to `emitted`.
  ///
  /// Throws if the step is illegal in the current state.
  mutating func apply(_ step: ModelStep) throws(Refusal) {
    switch step {
    case .attach(let parent, let child):
      if let current = nodes[child].parent {
        throw Refusal(description: "#\(child) already has parent #\(current)")
      }
      guard !nodes[child].isWindowRoot, child != parent else {
        throw Refusal(description: "#\(child) cannot be attached")
      }
      nodes[child].parent = parent
      nodes[parent].children.append(child)
      emit(parent, .childAdded(ids[child]))
      emit(child, .willMove(toParent: ids[parent]))

    case .detachForMove(let parent, let child):
      guard nodes[child].parent == parent else { throw Refusal(description: "#\(child) is not a child of #\(parent)") }
      emit(child, .willMove(toParent: nil))
      remove(parent: parent, child: child, reason: .moved)

    case .remove(let parent, let child):
      guard nodes[child].parent == parent else { throw Refusal(description: "#\(child) is not a child of #\(parent)") }
      remove(parent: parent, child: child, reason: .requested)

    case .addSubview(let parent, let child):
      guard nodes[child].parent == parent else {
        throw Refusal(description: "#\(child)'s view is foreign to #\(parent)")
      }
      let wasInWindow = nodes[child].installed && isInWindow(parent)
      let willBeInWindow = isInWindow(parent)
      var pass = Pass(animated: false)
      if wasInWindow != willBeInWindow {
        begin(&pass, forwardingTargets(inViewOf: child), appearing: willBeInWindow)
      }
      nodes[child].installed = true
      deliverAll(pass)

    case .removeFromSuperview(let child):
      guard nodes[child].installed, let parent = nodes[child].parent else { return }
      var pass = Pass(animated: false)
      if isInWindow(parent) { begin(&pass, forwardingTargets(inViewOf: child), appearing: false) }
      nodes[child].installed = false
      deliverAll(pass)

    case .willMove(let child, let parent):
      emit(child, .willMove(toParent: parent.map { ids[$0] }))

    case .didMove(let child, let parent):
      emit(child, .didMove(toParent: parent.map { ids[$0] }))

    case .transition(let container, let from, let to, let animated, let outcome):
      for child in [from, to] where nodes[child].parent != container {
        throw Refusal(description: "#\(child) is not a child of #\(container)")
      }
      guard from != to else { throw Refusal(description: "same controller") }
      guard nodes[from].installed else { throw Refusal(description: "#\(from)'s view is not installed") }
      guard !nodes[to].installed else { throw Refusal(description: "#\(to)'s view is already installed") }
      nodes[to].installed = true
      var pass = Pass(animated: animated)
      if nodes[container].forwards, isInWindow(container) {
        begin(&pass, forwardingTargets(from: from), appearing: false)
        begin(&pass, forwardingTargets(from: to), appearing: true)
      }
      emit(container, .transitionBegan(from: ids[from], to: ids[to], options: []))
      deliverWill(pass)
      deliverIsAppearing(pass)
      nodes[from].installed = false
      deliverDid(pass)
      emit(container, .transitionEnded(from: ids[from], to: ids[to], outcome: outcome))

    case .batch(let container, let intents, let animated):
      for intent in intents where nodes[intent.child].parent != container {
        throw Refusal(description: "#\(intent.child) is not a child of #\(container)")
      }
      var net: [Int: Bool] = [:]
      for intent in intents { net[intent.child] = intent.appearing }
      var pass = Pass(animated: animated)
      var disappearing: [ControllerID] = []
      var appearing: [ControllerID] = []
      for isAppearing in [false, true] {
        for child in nodes[container].children where net[child] == isAppearing {
          let before = pass.entries.count
          begin(&pass, forwardingTargets(from: child), appearing: isAppearing)
          guard pass.entries.count > before else { continue }
          if isAppearing { appearing.append(ids[child]) } else { disappearing.append(ids[child]) }
        }
      }
      deliverWill(pass)
      deliverIsAppearing(pass)
      deliverDid(pass)
      emit(container, .batchCommitted(disappearing: disappearing, appearing: appearing))

    case .begin(let child, let appearing, let animated):
      var pass = Pass(animated: animated)
      begin(&pass, [child], appearing: appearing, automatic: false)
      if !pass.entries.isEmpty {
        begin(&pass, Array(forwardingTargets(from: child).dropFirst()), appearing: appearing)
      }
      deliverWill(pass)

    case .navigation(let tree, let change, let animated):
      try changeStack(tree: tree, change, animated: animated)

    case .tabs(let tree, .select(let index)):
      guard tabList[tree].indices.contains(index) else { throw Refusal(description: "tab index \(index) out of range") }
      switchTab(tree: tree, to: tabList[tree][index])

    case .tabs(let tree, .set(let tabs, let selected)):
      guard tabs.indices.contains(selected), Set(tabs).count == tabs.count else {
        throw Refusal(description: "bad tabs")
      }
      let old = tabList[tree]
      let removed = old.filter { !tabs.contains($0) }
      let added = tabs.filter { !old.contains($0) }
      for child in added
      where tabList.contains(where: { $0.contains(child) }) || stacks.contains(where: { $0.contains(child) }) {
        throw Refusal(description: "#\(child) has another parent")
      }
      for child in removed { emit(child, .willMove(toParent: nil)) }
      for child in added { emit(child, .willMove(toParent: tabIDs[tree])) }
      endPresentations(from: removed, reason: .replaced)
      tabList[tree] = tabs
      switchTab(tree: tree, to: tabs[selected])
      for child in removed { nodes[child].installed = false }
      for child in removed { emit(child, .didMove(toParent: nil)) }
      for child in added { emit(child, .didMove(toParent: tabIDs[tree])) }

    case .traits(let tree, let compact):
      // An unchanged size class is no change: no event (`Window.setTraitCollection`).
      guard self.compact[tree] != compact else { return }
      self.compact[tree] = compact
      let traits = TraitCollection(horizontalSizeClass: compact ? .compact : .regular)
      for column in [splitPrimary[tree], splitSecondary[tree]] { emit(column, .traitCollectionDidChange(traits)) }

    case .split(let tree, let requested, let compact):
      layoutSplit(tree: tree, showing: requested, compact: compact ?? self.compact[tree])

    case .arm(let child):
      armed.insert(child)

    case .disarm(let child):
      armed.remove(child)

    case .setRoot(let window, let root, let animated):
      try setRoot(window: window, root: root, animated: animated)

    case .changeChildren(let container, let children, let shown, let animated):
      try changeChildren(container: container, children: children, shown: shown, animated: animated)

    case .present, .dismiss, .interactiveDismiss, .presentationRoot:
      try applyPresentation(step)

    case .end(let child):
      let animated = nodes[child].appearance.animated
      let own = end(child)
      var plan: [(Int, [Effect])] = [(child, own)]
      if own.contains(where: { $0 == .didAppear || $0 == .didDisappear }) {
        for descendant in forwardingTargets(from: child).dropFirst() {
          let state = nodes[descendant].appearance.state
          guard state == .appearing || state == .disappearing else { continue }
          plan.append((descendant, end(descendant)))
        }
      }
      for (index, effects) in plan { perform(index, effects.filter { $0 == .isAppearing }, animated: animated) }
      for (index, effects) in plan { perform(index, effects.filter { $0 != .isAppearing }, animated: animated) }
    }
  }
}
