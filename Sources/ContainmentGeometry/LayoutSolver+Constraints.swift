// MARK: - Constraint binding and evaluation

extension LayoutSolver {
  /// How a constraint's related item relates to its item.
  enum Relation {
    case none
    case itself
    case superview
    case sibling
  }

  /// A constraint that the solver can apply, with its hierarchy context.
  struct BoundConstraint {
    var index: Int
    var constraint: LayoutConstraint<Item>
    var relation: Relation
    var superview: Item
    var depth: Int
  }

  static func bind(
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
  static func target(
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
  static func holds(
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
