/// The outcome of ``LayoutSolver/solve(nodes:constraints:)``.
///
/// Plain value type; safe to share across concurrency domains.
public struct LayoutResult<Item: Hashable & Sendable>: Sendable, Equatable {
  /// The solved frame of every node passed to the solver, each in its superview's coordinate space.
  public var frames: [Item: Rect]
  /// The constraints that do not hold for ``frames``, in the order they were passed to the solver.
  ///
  /// Empty when every constraint is satisfied.
  public var unsatisfied: [LayoutConstraint<Item>]

  /// Creates a result from solved frames and the constraints that do not hold for them.
  public init(frames: [Item: Rect], unsatisfied: [LayoutConstraint<Item>]) {
    self.frames = frames
    self.unsatisfied = unsatisfied
  }
}

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
    /// The view's superview, or `nil` for a root. A superview that is not itself among the solved
    /// nodes also makes this node a root.
    public var superview: Item?
    /// The view's current frame in its superview's coordinate space. A root's frame is fixed;
    /// other frames supply the values of attributes no constraint determines.
    public var frame: Rect

    /// Creates a node; `superview` defaults to `nil`, making it a root.
    public init(superview: Item? = nil, frame: Rect) {
      self.superview = superview
      self.frame = frame
    }
  }

  /// Creates a solver. It has no configuration and no state.
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

// MARK: - Hierarchy

extension LayoutSolver {
  /// Where a node sits in the hierarchy.
  private enum Placement {
    /// No superview among the nodes; the frame is fixed.
    case root
    /// A descendant of a root; `depth` is 1 for a root's children.
    case child(superview: Item, depth: Int)
    /// On, or below, a cycle of superviews; cannot be solved.
    case detached
  }

  private static func placements(of nodes: [Item: Node]) -> [Item: Placement] {
    var placements: [Item: Placement] = [:]
    for start in nodes.keys where placements[start] == nil {
      // Walk up until a node with a known placement, a root, or a node seen on this walk.
      var chain: [Item] = []
      var onChain: Set<Item> = []
      var top = start
      var topPlacement: Placement
      while true {
        if let known = placements[top] {
          topPlacement = known
          break
        }
        if onChain.contains(top) {
          topPlacement = .detached
          break
        }
        guard let superview = nodes[top]?.superview, nodes[superview] != nil else {
          topPlacement = .root
          placements[top] = .root
          break
        }
        chain.append(top)
        onChain.insert(top)
        top = superview
      }
      // Each chain element's superview is the element after it, the last one's is `top`.
      var superview = top
      var superviewPlacement = topPlacement
      for item in chain.reversed() {
        let placement: Placement
        switch superviewPlacement {
        case .detached:
          placement = .detached
        case .root:
          placement = .child(superview: superview, depth: 1)
        case .child(_, let depth):
          placement = .child(superview: superview, depth: depth + 1)
        }
        placements[item] = placement
        superview = item
        superviewPlacement = placement
      }
    }
    return placements
  }
}

// MARK: - Constraint binding and evaluation

extension LayoutSolver {
  /// How a constraint's related item relates to its item.
  private enum Relation {
    case none
    case itself
    case superview
    case sibling
  }

  /// A constraint that the solver can apply, with its hierarchy context.
  private struct BoundConstraint {
    var index: Int
    var constraint: LayoutConstraint<Item>
    var relation: Relation
    var superview: Item
    var depth: Int
  }

  private static func bind(
    _ constraint: LayoutConstraint<Item>,
    at index: Int,
    placements: [Item: Placement]
  ) -> BoundConstraint? {
    guard constraint.multiplier.isFinite, constraint.constant.isFinite,
      case .child(let superview, let depth) = placements[constraint.item]
    else {
      return nil
    }
    let relation: Relation
    if let related = constraint.relatedItem {
      if related == constraint.item {
        relation = .itself
      } else if related == superview {
        relation = .superview
      } else if case .child(let relatedSuperview, _) = placements[related], relatedSuperview == superview {
        relation = .sibling
      } else {
        return nil
      }
    } else {
      relation = .none
    }
    return BoundConstraint(
      index: index, constraint: constraint, relation: relation, superview: superview, depth: depth)
  }

  /// The value the constraint demands for its item's attribute, given the current frames.
  private static func target(
    of constraint: LayoutConstraint<Item>,
    relation: Relation,
    frames: [Item: Rect],
    superviewBounds: Rect
  ) -> Double? {
    let related: Rect
    switch relation {
    case .none:
      return constraint.constant
    case .superview:
      related = superviewBounds
    case .itself, .sibling:
      guard let relatedItem = constraint.relatedItem, let frame = frames[relatedItem] else {
        return nil
      }
      related = frame
    }
    return constraint.multiplier * related.value(of: constraint.relatedAttribute) + constraint.constant
  }

  /// Whether a constraint holds for the final frames; `false` for any constraint that cannot bind.
  private static func holds(
    _ constraint: LayoutConstraint<Item>,
    in frames: [Item: Rect],
    nodes: [Item: Node]
  ) -> Bool {
    guard let frame = frames[constraint.item], let superview = nodes[constraint.item]?.superview else {
      return false
    }
    let bounds = Rect(origin: .zero, size: frames[superview]?.size ?? .zero)
    let relation: Relation
    if let related = constraint.relatedItem {
      relation = related == constraint.item ? .itself : related == superview ? .superview : .sibling
    } else {
      relation = .none
    }
    guard let expected = target(of: constraint, relation: relation, frames: frames, superviewBounds: bounds)
    else {
      return false
    }
    let actual = frame.value(of: constraint.attribute)
    guard expected.isFinite, actual.isFinite else {
      return false
    }
    return abs(actual - expected) <= 1e-9 * max(1, abs(actual), abs(expected))
  }
}

// MARK: - Sibling groups

extension LayoutSolver {
  /// The constrained children of one superview, solved together.
  private struct SiblingGroup {
    var depth: Int
    /// Index of the group's first constraint; orders groups of equal depth deterministically.
    var firstIndex: Int
    /// Constrained children in order of their first constraint.
    var members: [Item] = []
    var constraintsByMember: [Item: [BoundConstraint]] = [:]

    init(depth: Int, firstIndex: Int) {
      self.depth = depth
      self.firstIndex = firstIndex
    }

    mutating func add(_ bound: BoundConstraint) {
      let item = bound.constraint.item
      if constraintsByMember[item] == nil {
        members.append(item)
      }
      constraintsByMember[item, default: []].append(bound)
    }

    /// Propagates to a fixed point, freezing unsettled cycle members until the group settles.
    func solve(frames: inout [Item: Rect], originalFrames: [Item: Node], superviewBounds: Rect) {
      let cyclic = cyclicMembers()
      var frozen: Set<Item> = []
      while frozen.count < members.count {
        let unsettled = propagate(
          frames: &frames, originalFrames: originalFrames, frozen: frozen,
          superviewBounds: superviewBounds)
        guard !unsettled.isEmpty else {
          return
        }
        let unsettledOnCycles = unsettled.filter(cyclic.contains)
        for item in unsettledOnCycles.isEmpty ? unsettled : unsettledOnCycles {
          frozen.insert(item)
          frames[item] = originalFrames[item]?.frame
        }
      }
    }

    /// Runs bounded passes; returns the members changed by the last pass (empty once settled).
    private func propagate(
      frames: inout [Item: Rect],
      originalFrames: [Item: Node],
      frozen: Set<Item>,
      superviewBounds: Rect
    ) -> [Item] {
      var changed: [Item] = []
      for _ in 0..<(members.count + 2) {
        changed = []
        for item in members where !frozen.contains(item) {
          guard let original = originalFrames[item]?.frame else {
            continue
          }
          var horizontal = AxisConstraints()
          var vertical = AxisConstraints()
          for bound in constraintsByMember[item] ?? [] {
            guard
              let value = LayoutSolver.target(
                of: bound.constraint, relation: bound.relation, frames: frames,
                superviewBounds: superviewBounds),
              value.isFinite
            else {
              continue
            }
            let attribute = bound.constraint.attribute
            if attribute.isHorizontal {
              horizontal.offer(attribute.role, value)
            } else {
              vertical.offer(attribute.role, value)
            }
          }
          let x = horizontal.resolve(start: original.minX, length: original.width)
          let y = vertical.resolve(start: original.minY, length: original.height)
          let solved = Rect(x: x.start, y: y.start, width: x.length, height: y.length)
          if let current = frames[item], current.isIdentical(to: solved) {
            continue
          }
          frames[item] = solved
          changed.append(item)
        }
        if changed.isEmpty {
          break
        }
      }
      return changed
    }

    /// Members on a dependency cycle among the group's constraints (including reading themselves).
    private func cyclicMembers() -> Set<Item> {
      var dependencies: [Item: [Item]] = [:]
      for item in members {
        for bound in constraintsByMember[item] ?? [] {
          guard let related = bound.constraint.relatedItem,
            bound.relation == .itself || bound.relation == .sibling,
            constraintsByMember[related] != nil
          else {
            continue
          }
          dependencies[item, default: []].append(related)
        }
      }
      // Tarjan's strongly connected components, iterative over `members`.
      var index: [Item: Int] = [:]
      var lowLink: [Item: Int] = [:]
      var stack: [Item] = []
      var onStack: Set<Item> = []
      var cyclic: Set<Item> = []
      var nextIndex = 0

      func connect(_ item: Item) {
        index[item] = nextIndex
        lowLink[item] = nextIndex
        nextIndex += 1
        stack.append(item)
        onStack.insert(item)
        for next in dependencies[item] ?? [] {
          if index[next] == nil {
            connect(next)
            lowLink[item] = min(lowLink[item] ?? 0, lowLink[next] ?? 0)
          } else if onStack.contains(next) {
            lowLink[item] = min(lowLink[item] ?? 0, index[next] ?? 0)
          }
        }
        guard lowLink[item] == index[item] else {
          return
        }
        var component: [Item] = []
        while let top = stack.popLast() {
          onStack.remove(top)
          component.append(top)
          if top == item {
            break
          }
        }
        if component.count > 1 || (dependencies[item] ?? []).contains(item) {
          cyclic.formUnion(component)
        }
      }

      for item in members where index[item] == nil {
        connect(item)
      }
      return cyclic
    }
  }
}

// MARK: - Axis resolution

/// The role an attribute plays on its axis.
private enum AxisRole {
  case start
  case end
  case length
  case center
}

extension LayoutAttribute {
  fileprivate var isHorizontal: Bool {
    switch self {
    case .left, .right, .width, .centerX: true
    case .top, .bottom, .height, .centerY: false
    }
  }

  fileprivate var role: AxisRole {
    switch self {
    case .left, .top: .start
    case .right, .bottom: .end
    case .width, .height: .length
    case .centerX, .centerY: .center
    }
  }
}

/// The first two distinct roles demanded on one axis of one view, with their values.
private struct AxisConstraints {
  private var demands: [(role: AxisRole, value: Double)] = []

  /// Records a demand unless its role is already fixed or the axis is already determined.
  mutating func offer(_ role: AxisRole, _ value: Double) {
    guard demands.count < 2, !demands.contains(where: { $0.role == role }) else {
      return
    }
    demands.append((role, value))
  }

  /// The axis' start and length, keeping `start`/`length` where the demands leave them free.
  func resolve(start: Double, length: Double) -> (start: Double, length: Double) {
    var start = start
    var length = length
    func value(_ role: AxisRole) -> Double? {
      demands.first { $0.role == role }?.value
    }
    switch (value(.start), value(.end), value(.length), value(.center)) {
    case (let s?, let e?, _, _):
      start = s
      length = e - s
    case (let s?, _, let l?, _):
      start = s
      length = l
    case (let s?, _, _, let c?):
      start = s
      length = 2 * (c - s)
    case (_, let e?, let l?, _):
      start = e - l
      length = l
    case (_, let e?, _, let c?):
      length = 2 * (e - c)
      start = e - length
    case (_, _, let l?, let c?):
      start = c - l / 2
      length = l
    case (let s?, nil, nil, nil):
      start = s
    case (nil, let e?, nil, nil):
      start = e - length
    case (nil, nil, let l?, nil):
      length = l
    case (nil, nil, nil, let c?):
      start = c - length / 2
    case (nil, nil, nil, nil):
      break
    }
    guard length < 0, let first = demands.first else {
      return (start, length)
    }
    // A negative size is impossible: collapse to zero at the first demand's position.
    switch first.role {
    case .start, .end, .center:
      return (first.value, 0)
    case .length:
      return (start, 0)
    }
  }
}

extension Rect {
  /// The value of a layout attribute of this rectangle.
  fileprivate func value(of attribute: LayoutAttribute) -> Double {
    switch attribute {
    case .left: minX
    case .right: maxX
    case .top: minY
    case .bottom: maxY
    case .width: width
    case .height: height
    case .centerX: midX
    case .centerY: midY
    }
  }

  /// Equality that treats NaN components as equal to NaN, so propagation can settle on them.
  fileprivate func isIdentical(to other: Rect) -> Bool {
    func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
    return same(minX, other.minX) && same(minY, other.minY) && same(width, other.width)
      && same(height, other.height)
  }
}
