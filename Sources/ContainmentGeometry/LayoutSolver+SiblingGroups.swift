// MARK: - Sibling groups

extension LayoutSolver {
  /// The constrained children of one superview, solved together.
  struct SiblingGroup {
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
