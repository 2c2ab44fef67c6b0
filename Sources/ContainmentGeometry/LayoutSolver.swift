/// Computes view frames from a view hierarchy and a list of ``LayoutConstraint``s.
///
/// Pure value logic: no state, no side effects, safe to use from any isolation domain. Never
/// traps on bad input; anything it cannot satisfy is reported in ``LayoutResult/unsatisfied``.
///
/// ## Coordinates
/// Every frame is in its superview's coordinate space. A constraint relating a view to its own
/// superview reads the superview's *bounds* (`left == 0`, `top == 0`, width and height of the
/// superview's solved frame). A constraint relating a view to a sibling, or to itself, reads frames
/// in the shared superview's coordinates. A constraint without a related item is an absolute value
/// in the superview's coordinates.
///
/// ## Algorithm
/// Views are solved top-down: all children of one superview are solved together after that
/// superview's frame is final. Within such a sibling group the solver repeatedly recomputes each
/// constrained view from the current frames of the views it reads, until a pass changes nothing,
/// so siblings may depend on each other in any declaration order. Propagation is bounded to
/// group size + 2 passes; a group that does not settle contains a dependency cycle that
/// propagation cannot resolve. The views on such a cycle that are still changing get their
/// original frames back and are no longer recomputed, and the group is solved again around them.
///
/// Per axis a view is determined by two of `{left, right, width, centerX}` (resp.
/// `{top, bottom, height, centerY}`), taken in declaration order; further constraints on that axis
/// are only checked. Unconstrained attributes keep the view's current frame, preferring to keep
/// the size: a view with only `left` constrained moves and keeps its width; one with only `width`
/// constrained keeps its `left`; one with only `centerX` keeps its width. A computed negative
/// size becomes zero.
///
/// ## Reporting
/// After solving, every constraint is checked against the final frames (tolerance `1e-9`,
/// relative for large values). Reported as unsatisfied are: constraints that do not hold
/// (conflicts, unsettled cycles, sizes clamped at zero), constraints whose item is not a node or
/// is a root (roots are fixed), constraints whose related item is not the item itself, its
/// superview or a sibling, constraints with a non-finite multiplier or constant, and constraints
/// on views whose superview chain is cyclic.
public struct LayoutSolver<Item: Hashable & Sendable>: Sendable {
  /// One view of the hierarchy being solved.
  ///
  /// Plain value type; safe to share across concurrency domains.
  public struct Node: Sendable, Hashable {
    /// The view's superview, or `nil` for a root.
    ///
    /// A superview that is not itself among the solved nodes also makes this node a root.
    public var superview: Item?
    /// The view's current frame in its superview's coordinate space.
    ///
    /// A root's frame is fixed; other frames supply the values of attributes no constraint
    /// determines.
    public var frame: Rect

    /// Creates a node; `superview` defaults to `nil`, making it a root.
    public init(superview: Item? = nil, frame: Rect) {
      self.superview = superview
      self.frame = frame
    }
  }

  /// Creates a solver.
  ///
  /// It has no configuration and no state.
  public init() {}

  /// Returns new frames for every node and the constraints that do not hold for them.
  ///
  /// Deterministic: the result depends only on the arguments, including the order of
  /// `constraints` (which decides which of several conflicting constraints wins, the first one).
  /// See ``LayoutSolver`` for the rules.
  ///
  /// - Parameters:
  ///   - nodes: The hierarchy: every view, its superview and its current frame.
  ///   - constraints: The equalities to satisfy, in priority order.
  /// - Returns: A frame for every key of `nodes`, and the unsatisfied constraints in input order.
  public func solve(nodes: [Item: Node], constraints: [LayoutConstraint<Item>]) -> LayoutResult<Item> {
    let placements = Self.placements(of: nodes)
    var frames = nodes.mapValues(\.frame)
    var rejected: Set<Int> = []
    var groups: [Item: SiblingGroup] = [:]

    for (index, constraint) in constraints.enumerated() {
      guard let bound = Self.bind(constraint, at: index, placements: placements) else {
        rejected.insert(index)
        continue
      }
      groups[bound.superview, default: SiblingGroup(depth: bound.depth, firstIndex: index)]
        .add(bound)
    }

    let orderedGroups = groups.sorted {
      ($0.value.depth, $0.value.firstIndex) < ($1.value.depth, $1.value.firstIndex)
    }
    for (superview, group) in orderedGroups {
      let bounds = Rect(origin: .zero, size: frames[superview]?.size ?? .zero)
      group.solve(frames: &frames, originalFrames: nodes, superviewBounds: bounds)
    }

    var unsatisfied: [LayoutConstraint<Item>] = []
    for (index, constraint) in constraints.enumerated() {
      if rejected.contains(index) || !Self.holds(constraint, in: frames, nodes: nodes) {
        unsatisfied.append(constraint)
      }
    }
    return LayoutResult(frames: frames, unsatisfied: unsatisfied)
  }
}
