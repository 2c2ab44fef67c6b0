// MARK: - Hierarchy

extension LayoutSolver {
  /// Where a node sits in the hierarchy.
  enum Placement {
    /// No superview among the nodes; the frame is fixed.
    case root
    /// A descendant of a root; `depth` is 1 for a root's children.
    case child(superview: Item, depth: Int)
    /// On, or below, a cycle of superviews; cannot be solved.
    case detached
  }

  static func placements(of nodes: [Item: Node]) -> [Item: Placement] {
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
