import ContainmentLocking
/// A container that shows two columns side by side when there is room, and
/// one of them when there is not (S1, S2): UIKit's
/// `UISplitViewController`, reduced to its classic two-column behaviour.
///
/// ```swift
/// let split = SplitViewController()
/// try await split.setViewControllers(primary: mailboxes, secondary: message)
/// try await window.setRootViewController(split)        // regular: both shown
/// try await window.setTraitCollection(.init(horizontalSizeClass: .compact))  // collapses
/// try await split.show(.secondary)                      // compact: the detail comes up
/// ```
///
/// **Layout** follows the horizontal size class of the window the split is
/// shown in (``ViewController/traitCollection``; `regular` when in none):
/// - `regular` (expanded): both root views installed, the primary
///   ``primaryColumnWidth`` wide on the left, the secondary filling the rest;
/// - `compact` (collapsed): one of them fills the bounds. Collapsed, the
///   split acts as a two-entry stack with the secondary *stacked on* the
///   primary: the primary is shown by default, ``show(_:)`` brings the
///   secondary up or goes back; the delegate may choose which column stays
///   shown at each collapse.
/// The layout is decided when the split's view loads and re-decided on every
/// trait change (``traitCollectionDidChange(_:)``), each time as a
/// transaction on the split's queue.
///
/// **Collapse** (regular → compact): delegate asked for the column to keep
/// (proposed: primary) → the other column's `viewWillDisappear` → its view
/// removed → its `viewDidDisappear` → delegate `didCollapse`. **Expand**
/// (compact → regular): the hidden column's view is installed →
/// `viewWillAppear → viewIsAppearing → viewDidAppear` → delegate
/// `didExpand`. The shown column gets no hooks either way, only a new frame;
/// so every controller's hooks stay balanced across any number of
/// collapses and expansions (S2). Appearance hooks only while the
/// split's view is on screen.
///
/// Every change is one transaction on this controller's FIFO queue, with the
/// waiting, nesting (R2) and cancellation rules of every verb (see
/// ``ViewController/addChild(_:)``).
public actor SplitViewController: ViewController {
  /// The runtime's state for this controller.
  public nonisolated let node: ControllerNode
  /// The primary column's width in the expanded layout.
  public nonisolated let primaryColumnWidth: Double
  nonisolated let state: TreeGuarded<SplitState>

  /// Creates a split controller with no columns; give it them with
  /// ``setViewControllers(primary:secondary:)``.
  public init(name: String = "Split", primaryColumnWidth: Double = 320) {
    self.node = ControllerNode(name: name)
    self.state = TreeGuarded.attached(SplitState(), to: node)
    self.primaryColumnWidth = primaryColumnWidth
  }

  // MARK: Reading (synchronous snapshots)

  /// The primary column's controller.
  public nonisolated var primaryViewController: (any ViewController)? {
    TreeLock.withLock(node) { held in column(held, .primary) }
  }
  /// The secondary column's controller.
  public nonisolated var secondaryViewController: (any ViewController)? {
    TreeLock.withLock(node) { held in column(held, .secondary) }
  }

  /// Whether the layout in effect shows one column.
  ///
  /// False until the split's view has been laid out.
  public nonisolated var isCollapsed: Bool {
    TreeLock.withLock(node) { held in state[held].isLaidOut && state[held].isCollapsed }
  }

  /// The column shown while collapsed (nil while expanded or not laid out).
  public nonisolated var shownColumn: SplitColumn? {
    TreeLock.withLock(node) { held in
      state[held].isLaidOut && state[held].isCollapsed ? state[held].shownColumn : nil
    }
  }

  /// The delegate, held weakly (see ``SplitViewControllerDelegate``).
  public nonisolated var delegate: (any SplitViewControllerDelegate)? {
    get { TreeLock.withLock(node) { held in state[held].delegate } }
    set { TreeLock.withLock(node) { held in state[held].delegate = newValue } }
  }

  // MARK: Requests

  /// Sets both columns.
  ///
  /// A controller leaving a column gets `willMove(nil)` first, its
  /// disappearance if it was shown, and `didMove(nil)` last; a joining one gets
  /// `willMove(self)` first, its view installed by the current layout (and its
  /// appearance, on screen), and `didMove(self)` last. Passing the current pair
  /// changes nothing.
  ///
  /// One transaction on this controller's queue. Throws, before anything
  /// changes: ``ContainmentError/sameController(_:)`` if both are the same,
  /// ``ContainmentError/alreadyChild(child:parent:)`` for a controller with
  /// another parent (policy: an error, never a move),
  /// ``ContainmentError/cannotAddSelfAsChild(_:)``,
  /// ``ContainmentError/wouldCreateCycle(child:parent:)``,
  /// ``ContainmentError/alreadyInWindow(_:)``, ``ContainmentError/childInFlight(_:)``,
  /// ``ContainmentError/tornDown(_:)``; from a transaction's body,
  /// ``ContainmentError/treeBusy(_:)`` (see ``ViewController/addChild(_:)``).
  @discardableResult
  public nonisolated func setViewControllers(primary: any ViewController, secondary: any ViewController) async throws
    -> TransactionHandle<Void>
  {
    try await Transaction.perform(on: .controller(self), adopting: [primary, secondary]) { context in
      try await self.replaceColumns(primary: primary, secondary: secondary, context: context)
    }
  }

  /// Shows `column` while collapsed, like a push (secondary) or a pop
  /// (primary) of the two-entry stack: the shown column's
  /// `viewWillDisappear` → the other's `viewWillAppear → viewIsAppearing` →
  /// `viewDidDisappear` → `viewDidAppear`.
  ///
  /// Expanded, both are shown and it does nothing; the next collapse asks the
  /// delegate again.
  ///
  /// One transaction on this controller's queue. Throws
  /// ``ContainmentError/tornDown(_:)``.
  @discardableResult
  public nonisolated func show(_ column: SplitColumn) async throws -> TransactionHandle<Void> {
    try await Transaction.perform(on: .controller(self)) { context in
      if self.node.isTornDown { throw ContainmentError.tornDown(self.node.id) }
      await self.layoutColumns(showing: column, context: context)
    }
  }

  // MARK: Hooks

  /// A plain view named after the controller.
  public func loadView() async -> View { View(label: node.name) }

  /// Lays the columns out when this view loads: a transaction on this queue
  /// started without waiting for it (see ``NavigationController/viewDidLoad()``).
  public func viewDidLoad() async {
    await Transaction.enqueue(on: .controller(self)) { context in
      await self.layoutColumns(showing: nil, context: context)
    }
  }

  /// Brings the columns' frames up to date with this view's size.
  public func viewWillAppear(_ animated: Bool) async {
    node.viewIfLoaded?.layoutIfNeeded()
  }

  /// Collapses or expands for the new size class (S2): a transaction on
  /// this queue, requested without waiting for it.
  ///
  /// Inside ``Window/setTraitCollection(_:)`` it is queued behind the trait
  /// change (R2: that change still owes the columns their
  /// `traitCollectionDidChange`), so the columns hear of the new traits first
  /// (D3) and the collapse or expansion follows before `setTraitCollection`
  /// returns. This hook's own time therefore never includes its columns' hooks.
  /// It reads the traits when it runs, so a burst of changes settles on the
  /// last one.
  public func traitCollectionDidChange(_ previous: TraitCollection?) async {
    await Transaction.enqueue(on: .controller(self)) { context in
      await self.layoutColumns(showing: nil, context: context)
    }
  }

  /// Collapsed: the shown column decides; expanded: the secondary (D1).
  public func childForStatusBarStyle() async -> (any ViewController)? { statusBarChild() }
  /// Collapsed: the shown column decides; expanded: the secondary (D1).
  public func childForStatusBarHidden() async -> (any ViewController)? { statusBarChild() }

  private nonisolated func statusBarChild() -> (any ViewController)? {
    TreeLock.withLock(node) { held in
      let collapsed = state[held].isLaidOut && state[held].isCollapsed
      return column(held, collapsed ? state[held].shownColumn : .secondary)
    }
  }

  // MARK: Inside transactions

  nonisolated func replaceColumns(
    primary: any ViewController, secondary: any ViewController, context: TransactionContext
  )
    async throws
  {
    try await runChildrenChange(
      reason: .replaced,
      context: context,
      involving: [primary, secondary],
      commit: { _, held in
        self.state[held].primary = primary
        self.state[held].secondary = secondary
      }
    ) { children, held in
      if primary === secondary { throw ContainmentError.sameController(primary.node.id) }
      let columns = [column(held, .primary), column(held, .secondary)]
      let others = children.filter { child in !columns.contains { $0 === child } }
      // A new column takes the place of the one it replaces: shown if that
      // one was, with the placement of the current layout.
      let compact = state[held].isLaidOut && state[held].isCollapsed
      var shown: [ShownChild] = []
      for (old, new) in zip(columns, [primary, secondary]) {
        guard let old, isInstalled(held, old) else { continue }
        shown.append(ShownChild(new, placement: placement(held, of: new, compact: compact, primary: primary)))
      }
      return ChildrenChange(children: [primary, secondary] + others, shown: shown)
    }
    await layoutColumns(showing: nil, context: context)
  }

  /// Inside a transaction on this queue: makes the installed columns match
  /// the current size class (and `requested`, the column to show while
  /// collapsed).
  ///
  /// Does nothing until this view is loaded and both columns are set.
  nonisolated func layoutColumns(showing requested: SplitColumn?, context: TransactionContext) async {
    struct Reading {
      let primary: any ViewController
      let secondary: any ViewController
      let compact: Bool
      let wasCollapsed: Bool?
      let shown: SplitColumn
      let delegate: (any SplitViewControllerDelegate)?
    }
    let reading = TreeLock.withLock(node) { (held: LinkSection) -> Reading? in
      guard !node[held].supervision.isTornDown, node[held].view != nil, let primary = column(held, .primary),
        let secondary = column(held, .secondary)
      else { return nil }
      let traits = node.hostingWindow(held)?[held].traits ?? TraitCollection()
      return Reading(
        primary: primary, secondary: secondary, compact: traits.horizontalSizeClass == .compact,
        wasCollapsed: state[held].isLaidOut ? state[held].isCollapsed : nil,
        shown: state[held].shownColumn, delegate: state[held].delegate)
    }
    guard let reading else { return }
    var shown = requested ?? reading.shown
    if reading.compact, reading.wasCollapsed != true, requested == nil {
      shown = .primary
      if let delegate = reading.delegate {
        shown = await Gateway.call(
          UserCall("splitViewController(_:topColumnForCollapsingToProposedTopColumn:)", of: self), in: context,
          ifAbandoned: { .primary }
        ) { await delegate.splitViewController(self, topColumnForCollapsingToProposedTopColumn: .primary) }
      }
    }
    let shownController = shown == .primary ? reading.primary : reading.secondary
    let desired = reading.compact ? [shownController] : [reading.primary, reading.secondary]
    if isViewLoaded {
      for controller in desired { _ = await controller.loadViewIfNeeded(in: context) }
    }

    var pass = AppearancePass(animated: false)
    let leaving = TreeLock.withLock(node) { (held: LinkSection) -> [any ViewController]? in
      guard let view = node[held].view, column(held, .primary) === reading.primary,
        column(held, .secondary) === reading.secondary
      else { return nil }
      let onScreen = view.window(held) != nil
      let leaving = [reading.primary, reading.secondary].filter { controller in
        isInstalled(held, controller) && !desired.contains { $0 === controller }
      }
      if onScreen {
        for controller in leaving {
          pass.beginForwarding(held, from: controller, isAppearing: false)
        }
      }
      for controller in desired {
        let placement = placement(held, of: controller, compact: reading.compact, primary: reading.primary)
        if isInstalled(held, controller) {
          pin(held, controller, placement)
        } else {
          install(held, controller, placement)
          if onScreen { pass.beginForwarding(held, from: controller, isAppearing: true) }
        }
      }
      state[held].isCollapsed = reading.compact
      state[held].isLaidOut = true
      state[held].shownColumn = shown
      return leaving
    }
    guard let leaving else { return }
    await pass.deliverWill(in: context)
    await pass.deliverIsAppearing(in: context)
    TreeLock.withLock(node) { held in
      for controller in leaving where isInstalled(held, controller) { uninstall(held, controller) }
    }
    await pass.deliverDid(in: context)

    guard let wasCollapsed = reading.wasCollapsed, wasCollapsed != reading.compact,
      let delegate = TreeLock.withLock(node, { held in state[held].delegate })
    else { return }
    let name = reading.compact ? "splitViewControllerDidCollapse(_:)" : "splitViewControllerDidExpand(_:)"
    await Gateway.call(UserCall(name, of: self), in: context, ifAbandoned: {}) {
      if reading.compact {
        await delegate.splitViewControllerDidCollapse(self)
      } else {
        await delegate.splitViewControllerDidExpand(self)
      }
    }
  }

  /// Under the link lock: a column's controller, if it is still a child.
  nonisolated func column(_ held: LinkSection, _ column: SplitColumn) -> (any ViewController)? {
    let controller = column == .primary ? state[held].primary : state[held].secondary
    guard let controller, controller.node.isChild(held, of: self) else { return nil }
    return controller
  }

  /// Where a column's view goes in a layout.
  nonisolated func placement(
    _ held: LinkSection, of controller: any ViewController, compact: Bool, primary: any ViewController
  )
    -> ChildPlacement
  {
    if compact { return ChildPlacement() }
    if controller === primary { return ChildPlacement(width: primaryColumnWidth) }
    return ChildPlacement(insets: EdgeInsets(left: primaryColumnWidth))
  }
}
