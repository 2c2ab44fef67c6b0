/// One change of a container's children, run by
/// ``ViewController/changeChildren(_:)``: who the children are afterwards,
/// which of them show their root views, and whether it animates.
///
/// The change runs in the order the built-in containers use (N2, B2, T2):
/// leaving children `willMove(toParent: nil)`, joining ones
/// `willMove(toParent: container)`; newly shown children load their views;
/// the will-hooks of the children that disappear, then of those that appear;
/// `viewIsAppearing`; the animation on the tree's clock; hidden views
/// removed; the did-hooks in the same order; then `didMove(toParent: nil)`
/// to leaving children and `didMove(toParent: container)` to joining ones.
///
/// ```swift
/// // Show `detail` instead of whatever is shown, keeping `list` as a child.
/// try await container.changeChildren(
///   ChildrenChange(children: [list, detail], shown: [detail], animated: true, duration: .milliseconds(300)))
/// ```
public struct ChildrenChange: Sendable {
  /// The container's children afterwards, in order.
  ///
  /// Current children that are missing leave; listed controllers that are not
  /// children yet join.
  public var children: [any ViewController]
  /// The children whose root views are installed afterwards, back to front,
  /// each with its placement.
  ///
  /// Every other child's view is removed.
  public var shown: [ShownChild]
  /// Whether the hooks say `animated` and the change waits `duration` on
  /// the tree's clock (only when something appears or disappears on screen).
  public var animated: Bool
  /// How long an animated change takes.
  public var duration: Duration
  /// What the `childRemoved` events of the children that leave say (V4):
  /// ``RemovalReason/replaced`` unless the container says otherwise (a
  /// stack of its own says ``RemovalReason/popped``).
  public var reason: RemovalReason = .replaced

  /// Announces the change as a transition between two controllers.
  var transition: Announcement?
  /// For a policy that knows its change is at the end of the children (a
  /// push or a pop): the edit, applied in place, so that the change costs
  /// the same whatever the number of children.
  ///
  /// `children` is then unused.
  var edit: Edit?

  enum Edit {
    case append(any ViewController)
    case removeLast(Int)
  }

  struct Announcement {
    let from: (any ViewController)?
    let to: (any ViewController)?
    /// Announce even when no view is installed or removed.
    let always: Bool
  }

  /// A change to `children`, showing `shown` (each placed with `placement`).
  public init(
    children: [any ViewController],
    shown: [any ViewController],
    placement: ChildPlacement = .fill,
    animated: Bool = false,
    duration: Duration = .zero
  ) {
    self.children = children
    self.shown = shown.map { ShownChild($0, placement: placement) }
    self.animated = animated
    self.duration = duration
  }

  /// A change to `children`, showing each of `shown` with its own placement.
  public init(children: [any ViewController], shown: [ShownChild], animated: Bool = false, duration: Duration = .zero) {
    self.children = children
    self.shown = shown
    self.animated = animated
    self.duration = duration
  }
}

/// A child whose root view a ``ChildrenChange`` installs, and where.
public struct ShownChild: Sendable {
  /// The child.
  public let controller: any ViewController
  /// Where its root view goes in the container's view.
  public let placement: ChildPlacement

  /// `controller`'s view placed with `placement`.
  public init(_ controller: any ViewController, placement: ChildPlacement = .fill) {
    self.controller = controller
    self.placement = placement
  }
}

/// What a ``ChildrenChange`` did.
public struct ChildrenChangeResult: Sendable {
  /// The children that left, in their old order.
  public let removed: [any ViewController]
  /// The children that joined, in their new order.
  public let added: [any ViewController]
  /// `.interrupted` if the task was cancelled during the change (it still
  /// finished: policy T4); otherwise `.completed`.
  public let outcome: TransitionOutcome
}
