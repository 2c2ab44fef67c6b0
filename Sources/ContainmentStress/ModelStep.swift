import Containment

/// One runtime verb as the model replays it: what an operation's transaction
/// did, in order.
///
/// An operation kind maps its transactions to steps; the model gives each step
/// its meaning (the events it must produce). Container kinds (navigation, tab,
/// split) add their own steps here when they exist.
enum ModelStep: Sendable, Hashable, CustomStringConvertible {
  /// `parent.addChild(child)` linking a parentless child (C1).
  case attach(parent: Int, child: Int)
  /// The removal half of a move (C6): `willMove(nil)` then the removal.
  case detachForMove(parent: Int, child: Int)
  /// `child.removeFromParent()` (C2).
  case remove(parent: Int, child: Int)
  /// `parent.view.addSubview(child.view)`.
  case addSubview(parent: Int, child: Int)
  /// `child.view.removeFromSuperview()`.
  case removeFromSuperview(child: Int)
  /// `child.willMove(toParent:)` / `didMove(toParent:)` called by the container.
  case willMove(child: Int, parent: Int?)
  case didMove(child: Int, parent: Int?)
  /// `container.transition(from:to:)` (T1–T4), with the outcome it reported.
  case transition(container: Int, from: Int, to: Int, animated: Bool, outcome: TransitionOutcome)
  /// `container.commit(batch)` (A7): the intents in order (child, appearing).
  case batch(container: Int, intents: [BatchIntent], animated: Bool)
  /// `child.beginAppearanceTransition` / `endAppearanceTransition` (A3, A4).
  case begin(child: Int, appearing: Bool, animated: Bool)
  case end(child: Int)
  /// A navigation stack change on tree `tree`'s `NavigationController` (N1–N5, CONTAINERS.md §2).
  case navigation(tree: Int, change: StackChange, animated: Bool)
  /// A tab controller change on tree `tree` (B1–B3, CONTAINERS.md §4).
  case tabs(tree: Int, change: TabChange)
  /// Tree `tree`'s window changes its horizontal size class (a window
  /// transaction): the split columns hear `traitCollectionDidChange` (D3).
  case traits(tree: Int, compact: Bool)
  /// Tree `tree`'s split lays its columns out (S1, S2): after a trait
  /// change (`showing` nil) or for `show(_:)`. `compact` is the size class the
  /// layout read; nil until the checks resolve it from the trait timeline.
  case split(tree: Int, showing: SplitColumn?, compact: Bool?)
  /// `child` removes itself in its next `viewWillDisappear`: `willMove(toParent: nil)`
  /// at once, the removal queued behind the running transaction (HopKinds.swift).
  case arm(child: Int)
  /// The arming is over (it fired, or nothing hid `child`).
  case disarm(child: Int)
  /// Hop window `window`'s root becomes `root` (nil: none): the old root's
  /// tree disappears, then the new one's appears.
  case setRoot(window: Int, root: Int?, animated: Bool)
  /// `container.changeChildren(ChildrenChange(children:shown:animated:))` (R6, ScopeKinds.swift).
  case changeChildren(container: Int, children: [Int], shown: [Int], animated: Bool)
  /// `presenter.present(presented, style:, animated:)` (P1, P2, PresentationKinds.swift).
  case present(presenter: Int, presented: Int, style: PresentationStyle, animated: Bool)
  /// The dismissal `dismiss(animated:)` routed to `presenter` (P4): everything it presents.
  case dismiss(presenter: Int, animated: Bool)
  /// `presented.interactiveDismiss` (P6), finished or cancelled (or its driver threw).
  case interactiveDismiss(presented: Int, finish: Bool)
  /// Presentation window `window`'s root becomes `root`; the old root takes its presentations along.
  case presentationRoot(window: Int, root: Int?)

  enum StackChange: Sendable, Hashable, CustomStringConvertible {
    case push(Int)
    case pop
    case popTo(Int)
    case popToRoot
    case set([Int])
    /// `interactivePop` (N7), finished or cancelled (or its driver threw).
    case interactivePop(finish: Bool)

    var description: String {
      switch self {
      case .push(let c): "push(#\(c))"
      case .pop: "pop"
      case .popTo(let c): "popTo(#\(c))"
      case .popToRoot: "popToRoot"
      case .set(let list): "setViewControllers(\(list.map { "#\($0)" }.joined(separator: ", ")))"
      case .interactivePop(let finish): "interactivePop(\(finish ? "finish" : "cancel"))"
      }
    }
  }

  enum TabChange: Sendable, Hashable, CustomStringConvertible {
    case select(index: Int)
    case set(tabs: [Int], selected: Int)

    var description: String {
      switch self {
      case .select(let index): "select(\(index))"
      case .set(let tabs, let selected):
        "setViewControllers(\(tabs.map { "#\($0)" }.joined(separator: ", ")); selected \(selected))"
      }
    }
  }

  /// Steps of the built-in containers: such a request may change nothing and leave no event.
  var mayLeaveNoEvent: Bool {
    switch self {
    case .navigation, .tabs, .traits, .split: true
    // A change that keeps the children and only reorders them (placed by time: `containerKey`).
    case .changeChildren: true
    // A dismissal that a window's root change (another family) overtook.
    case .dismiss: true
    // A cancelled interactive dismissal of a sheet off screen (covered from its child) hears nothing.
    case .interactiveDismiss(_, false): true
    default: false
    }
  }

  /// The container whose order of requests the step depends on
  /// (`Checks.replay` places an eventless request among its container's
  /// others by time), or nil: a built-in one, or a custom container whose
  /// children a step changes (an engine change may only reorder them).
  var containerKey: String? {
    switch self {
    case .navigation(let tree, _, _): "navigation\(tree)"
    case .tabs(let tree, _): "tabs\(tree)"
    case .changeChildren(let container, _, _, _), .attach(let container, _), .detachForMove(let container, _),
      .addSubview(let container, _), .transition(let container, _, _, _, _):
      "children\(container)"
    case .remove(let container, _) where container >= 0: "children\(container)"
    default: nil
    }
  }

  struct BatchIntent: Sendable, Hashable {
    var child: Int
    var appearing: Bool
  }

  var description: String {
    switch self {
    case .attach(let p, let c): "attach(#\(c) to #\(p))"
    case .detachForMove(let p, let c): "detachForMove(#\(c) from #\(p))"
    case .remove(let p, let c): p < 0 ? "remove(#\(c) from its parent)" : "remove(#\(c) from #\(p))"
    case .addSubview(let p, let c): "addSubview(#\(c) into #\(p))"
    case .removeFromSuperview(let c): "removeFromSuperview(#\(c))"
    case .willMove(let c, let p): "willMove(#\(c), \(p.map { "#\($0)" } ?? "nil"))"
    case .didMove(let c, let p): "didMove(#\(c), \(p.map { "#\($0)" } ?? "nil"))"
    case .transition(let p, let a, let b, _, let outcome): "transition(#\(p): #\(a)->#\(b), \(outcome))"
    case .batch(let p, let intents, _):
      "batch(#\(p): \(intents.map { "\($0.appearing ? "+" : "-")#\($0.child)" }.joined(separator: " ")))"
    case .begin(let c, let appearing, _): "begin(#\(c), \(appearing))"
    case .end(let c): "end(#\(c))"
    case .navigation(let tree, let change, _): "navigation\(tree).\(change)"
    case .tabs(let tree, let change): "tabs\(tree).\(change)"
    case .traits(let tree, let compact): "window\(tree).traits(\(compact ? "compact" : "regular"))"
    case .split(let tree, let showing, let compact):
      "split\(tree).layout(\(showing.map { "show \($0), " } ?? "")\(compact.map { $0 ? "compact" : "regular" } ?? "?"))"
    case .arm(let c): "arm(#\(c) removes itself when hidden)"
    case .disarm(let c): "disarm(#\(c))"
    case .setRoot(let w, let root, _): "hopWindow\(w).setRoot(\(root.map { "#\($0)" } ?? "nil"))"
    case .present(let p, let c, let style, _): "present(#\(c) from #\(p), \(style))"
    case .dismiss(let p, _): "dismiss(above #\(p))"
    case .interactiveDismiss(let c, let finish): "interactiveDismiss(#\(c), \(finish ? "finish" : "cancel"))"
    case .presentationRoot(let w, let root): "presentationWindow\(w).setRoot(\(root.map { "#\($0)" } ?? "nil"))"
    case .changeChildren(let p, let children, let shown, _):
      "changeChildren(#\(p): [\(children.map { "#\($0)" }.joined(separator: ", "))] showing [\(shown.map { "#\($0)" }.joined(separator: ", "))])"
    }
  }
}
