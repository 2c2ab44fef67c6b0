import ContainmentLocking
/// A container that shows one of several children, chosen by a tab bar
/// (B1–B3): UIKit's `UITabBarController`, as an actor.
///
/// ```swift
/// let tabs = TabBarController()
/// try await tabs.setViewControllers([feed, profile], selectedIndex: 0)
/// try await window.setRootViewController(tabs)
/// let switched = try await tabs.select(1).value   // user tapped "Profile"
/// ```
///
/// **The tabs are the children**, in tab order. Only the selected child's
/// root view is installed (above the bar, ``tabBarHeight``); the others get
/// no appearance hooks, and their views are loaded only when they are first
/// selected (B1).
///
/// **Switching** from A to B (policy, B2): `B.viewDidLoad` (first time)
/// → `B.viewWillAppear` → `A.viewWillDisappear` → `B.viewIsAppearing` (B's
/// view is installed) → A's view is removed → `A.viewDidDisappear` →
/// `B.viewDidAppear`. Not animated. Appearance hooks only while this view is
/// on screen.
///
/// **Two ways to select** (B3): ``select(_:)`` is the user-facing path
/// (a tap on the bar) and asks the delegate; ``setSelectedIndex(_:)`` is
/// code setting `selectedIndex` and never does.
///
/// Every change is one transaction on this controller's FIFO queue, with the
/// waiting, nesting (R2) and cancellation rules of every verb (see
/// ``ViewController/addChild(_:)``); a switch that has started completes.
public actor TabBarController: ViewController {
  /// The bar's height; the selected child's view fills the rest.
  public static let tabBarHeight: Double = 49

  /// The runtime's state for this controller.
  public nonisolated let node: ControllerNode
  nonisolated let state: TreeGuarded<TabState>

  /// Creates a tab controller with no tabs.
  public init(name: String = "Tabs") {
    self.node = ControllerNode(name: name)
    self.state = TreeGuarded.attached(TabState(), to: node)
  }

  // MARK: Reading (synchronous snapshots)

  /// The tabs, in order: the children.
  public nonisolated var viewControllers: [any ViewController] { node.children }

  /// The selected child, or nil with no tabs.
  public nonisolated var selectedViewController: (any ViewController)? {
    TreeLock.withLock(node) { held in selected(held) }
  }

  /// The selected child's index in ``viewControllers``, or nil with no tabs.
  public nonisolated var selectedIndex: Int? {
    TreeLock.withLock(node) { held in
      selected(held).flatMap { selected in node[held].children.firstIndex { $0 === selected } }
    }
  }

  /// The delegate, held weakly (see ``TabBarControllerDelegate``).
  public nonisolated var delegate: (any TabBarControllerDelegate)? {
    get { TreeLock.withLock(node) { held in state[held].delegate } }
    set { TreeLock.withLock(node) { held in state[held].delegate = newValue } }
  }

  // MARK: Requests

  /// Replaces the tabs and selects `controllers[selectedIndex]` (code path:
  /// the delegate is not asked).
  ///
  /// Leaving tabs get `willMove(nil)` first and `didMove(nil)` last; joining
  /// tabs get `willMove(self)` and `didMove(self)` at the same points; the
  /// selection switch (B2) runs in between. An empty array removes every tab.
  ///
  /// One transaction on this controller's queue. Throws, before anything
  /// changes: ``ContainmentError/tabIndexOutOfRange(index:count:)``,
  /// ``ContainmentError/sameController(_:)`` for a tab listed twice,
  /// ``ContainmentError/alreadyChild(child:parent:)`` for a controller that has
  /// another parent (policy: an error, never a move),
  /// ``ContainmentError/cannotAddSelfAsChild(_:)``,
  /// ``ContainmentError/wouldCreateCycle(child:parent:)``,
  /// ``ContainmentError/alreadyInWindow(_:)``, ``ContainmentError/childInFlight(_:)``,
  /// ``ContainmentError/tornDown(_:)``; from a transaction's body,
  /// ``ContainmentError/treeBusy(_:)`` (see ``ViewController/addChild(_:)``).
  @discardableResult
  public nonisolated func setViewControllers(_ controllers: [any ViewController], selectedIndex: Int = 0) async throws
    -> TransactionHandle<Void>
  {
    try await Transaction.perform(on: .controller(self), adopting: controllers) { context in
      try await self.replaceTabs(controllers, selectedIndex: selectedIndex, context: context)
    }
  }

  /// Selects the tab at `index` as code does (B3): the delegate is not
  /// asked or told.
  ///
  /// Selecting the selected tab does nothing.
  ///
  /// One transaction on this controller's queue. Throws
  /// ``ContainmentError/tabIndexOutOfRange(index:count:)`` or
  /// ``ContainmentError/tornDown(_:)`` before anything changes.
  @discardableResult
  public nonisolated func setSelectedIndex(_ index: Int) async throws -> TransactionHandle<Void> {
    try await Transaction.perform(on: .controller(self)) { context in
      let candidate = try TreeLock.withLock(self.node) { held in try self.tab(held, at: index) }
      try await self.switchSelection(to: candidate, context: context)
    }
  }

  /// Selects the tab at `index` as the user does, by tapping the bar
  /// (B3): the delegate's `shouldSelect` is asked first; `false` changes
  /// nothing and the handle's value is `false`.
  ///
  /// Otherwise the switch runs (B2; nothing if the tab is already selected),
  /// then the delegate's `didSelect`, and the value is `true`.
  ///
  /// One transaction on this controller's queue; the delegate is asked
  /// inside it. Throws ``ContainmentError/tabIndexOutOfRange(index:count:)``
  /// or ``ContainmentError/tornDown(_:)`` before the delegate is asked.
  @discardableResult
  public nonisolated func select(_ index: Int) async throws -> TransactionHandle<Bool> {
    try await Transaction.perform(on: .controller(self)) { context in
      let (candidate, delegate) = try TreeLock.withLock(self.node) { held in
        (try self.tab(held, at: index), self.state[held].delegate)
      }
      if let delegate {
        // A delegate no longer waited for does not veto the selection.
        let allowed = await Gateway.call(
          UserCall("tabBarController(_:shouldSelect:)", of: self), in: context, ifAbandoned: { true }
        ) { await delegate.tabBarController(self, shouldSelect: candidate) }
        guard allowed else { return false }
      }
      try await self.switchSelection(to: candidate, context: context)
      if let delegate {
        await Gateway.call(UserCall("tabBarController(_:didSelect:)", of: self), in: context, ifAbandoned: {}) {
          await delegate.tabBarController(self, didSelect: candidate)
        }
      }
      return true
    }
  }

  // MARK: Hooks

  /// A plain view named after the controller.
  public func loadView() async -> View { View(label: node.name) }

  /// Installs the selected tab's view (loading it) when this view loads; a
  /// transaction on this queue started without waiting for it (see
  /// ``NavigationController/viewDidLoad()``).
  public func viewDidLoad() async {
    await Transaction.enqueue(on: .controller(self)) { context in
      let selected = TreeLock.withLock(self.node) { held in self.selected(held) ?? self.node[held].children.first }
      try await self.switchSelection(to: selected, context: context)
    }
  }

  /// Brings the selected child's frame up to date with this view's size.
  public func viewWillAppear(_ animated: Bool) async {
    node.viewIfLoaded?.layoutIfNeeded()
  }

  /// The selected tab decides (D1).
  public func childForStatusBarStyle() async -> (any ViewController)? { selectedViewController }
  /// The selected tab decides (D1).
  public func childForStatusBarHidden() async -> (any ViewController)? { selectedViewController }

  /// Adopts the selected tab's preferred content size (D2).
  public func preferredContentSizeDidChange(forChild child: any ViewController) async {
    guard child === selectedViewController else { return }
    await setPreferredContentSize(child.node.preferredContentSize)
  }

  // MARK: Inside transactions

  nonisolated func replaceTabs(
    _ controllers: [any ViewController], selectedIndex: Int, reason: RemovalReason = .replaced,
    context: TransactionContext
  ) async throws {
    try await runChildrenChange(
      reason: reason,
      context: context,
      involving: controllers,
      commit: { change, held in self.state[held].selected = change.shown.first?.controller }
    ) { _, held in
      if !controllers.isEmpty, !controllers.indices.contains(selectedIndex) {
        throw ContainmentError.tabIndexOutOfRange(index: selectedIndex, count: controllers.count)
      }
      return selectionChange(
        held, children: controllers, selecting: controllers.isEmpty ? nil : controllers[selectedIndex])
    }
  }

  /// Makes `new` the selected tab in B2's order: old will, new will, new
  /// is-appearing, old did, new did (the shape of N2 and T2).
  ///
  /// Without a loaded view it only records the selection; if `new` is selected
  /// already it makes sure its view is installed.
  nonisolated func switchSelection(to new: (any ViewController)?, context: TransactionContext) async throws {
    try await runChildrenChange(
      reason: .replaced,
      context: context,
      involving: new.map { [$0] } ?? [],
      commit: { change, held in self.state[held].selected = change.shown.first?.controller }
    ) { old, held in
      selectionChange(held, children: old, selecting: new)
    }
  }

  /// Under the link lock: the children change that leaves `children` with
  /// `selected` shown (announced as a switch only if a view comes or goes).
  nonisolated func selectionChange(
    _ held: LinkSection, children: [any ViewController], selecting selected: (any ViewController)?
  )
    -> ChildrenChange
  {
    var change = ChildrenChange(
      children: children, shown: selected.map { [$0] } ?? [], placement: Self.contentPlacement)
    change.transition = .init(from: self.selected(held), to: selected, always: false)
    return change
  }

  /// Under the link lock: the tab at `index`, or §8's error.
  nonisolated func tab(_ held: LinkSection, at index: Int) throws -> any ViewController {
    if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
    let tabs = node[held].children
    guard tabs.indices.contains(index) else {
      throw ContainmentError.tabIndexOutOfRange(index: index, count: tabs.count)
    }
    return tabs[index]
  }

  /// Under the link lock: the selected child, if it is still a child (or,
  /// inside ``setViewControllers(_:selectedIndex:)``, a leaving tab whose
  /// removal has not finished: it still has to disappear).
  nonisolated func selected(_ held: LinkSection) -> (any ViewController)? {
    guard let selected = state[held].selected, selected.node.isChild(held, of: self) else { return nil }
    return selected
  }

  static let contentPlacement = ChildPlacement(insets: EdgeInsets(bottom: tabBarHeight))
}

extension TabBarController: FaultIsolating {
  /// Lets a faulted or torn-down tab go (V2, V3): the tabs close up and, if it was selected,
  /// the tab that takes its place is selected (the next one, else the last).
  nonisolated func isolate(_ child: any ViewController, reason: RemovalReason, context: TransactionContext)
    async throws
  {
    let (tabs, selected) = TreeLock.withLock(node) { (held: LinkSection) -> ([any ViewController], Int) in
      let tabs = node[held].children
      let selected = state[held].selected.flatMap { current in tabs.firstIndex { $0 === current } } ?? 0
      return (tabs, selected)
    }
    guard let index = tabs.firstIndex(where: { $0 === child }) else { return }
    var remaining = tabs
    remaining.remove(at: index)
    let selecting = remaining.isEmpty ? 0 : min(selected > index ? selected - 1 : selected, remaining.count - 1)
    try await replaceTabs(remaining, selectedIndex: selecting, reason: reason, context: context)
  }
}
