import ContainmentLocking
/// One broken invariant found by ``ViewController/checkInvariants(quiescent:)``.
public struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
  /// The controller where it was found.
  public let controller: ControllerID
  /// What is wrong.
  public let message: String
  /// A readable description.
  public var description: String { "\(controller): \(message)" }
}

extension ViewController {
  /// Checks the invariants of §2 over the subtree rooted here, reading all
  /// links in one critical section (a consistent instant).
  ///
  /// The invariants:
  /// - every child names this controller as its parent, and appears once;
  /// - no cycles;
  /// - every controller of the tree, and its view, is guarded by the same
  ///   link lock as the root (trees are the unit of locking);
  /// - a controller's root view is in a parent's view hierarchy only while it
  ///   is that parent's child, and installed child views are inside the
  ///   parent's hierarchy;
  /// - with `quiescent` (no request running): no controller is half way
  ///   through an appearance transition, and every controller reached by
  ///   automatic forwarding from a window is `appeared` exactly when its view
  ///   is in the window.
  ///
  /// Synchronous; returns an empty array when everything holds.
  public nonisolated func checkInvariants(quiescent: Bool = true) -> [InvariantViolation] {
    TreeLock.withLock(node) { held in
      var checker = InvariantChecker(quiescent: quiescent)
      return checker.check(held, root: self)
    }
  }
}

/// The invariant walk behind ``ViewController/checkInvariants(quiescent:)``.
struct InvariantChecker {
  let quiescent: Bool
  private var violations: [InvariantViolation] = []
  private var visited: Set<ObjectIdentifier> = []
  /// The link domain of the root: every object linked to it shares it.
  private var domain = 0

  init(quiescent: Bool) { self.quiescent = quiescent }

  /// Iterative (each controller before its children, children in order), so
  /// a tree of any depth is checked without growing the stack.
  mutating func check(_ held: LinkSection, root: any ViewController) -> [InvariantViolation] {
    domain = root.node.linkDomain
    let automatic = root.node[held].parent.map { $0.shouldAutomaticallyForwardAppearanceMethods } ?? true
    var stack: [(any ViewController, Bool)] = [(root, automatic)]
    while let (controller, automaticallyForwarded) = stack.popLast() {
      guard visit(held, controller, automaticallyForwarded: automaticallyForwarded) else { continue }
      let forwards = automaticallyForwarded && controller.shouldAutomaticallyForwardAppearanceMethods
      // A presented controller (§10) is checked after the children, as a tree
      // of its own that forwards automatically.
      if let presented = controller.node[held].presented {
        // Its links are read only once its domain is known to be held (`visit`).
        if presented.node.linkDomain == domain, presented.node[held].presenting !== controller {
          fail(presented.node, "is presented by \(controller.node.name) but names another presenter")
        }
        stack.append((presented, true))
      }
      stack.append(contentsOf: controller.node[held].children.reversed().map { ($0, forwards) })
    }
    return violations
  }

  private mutating func fail(_ node: ControllerNode, _ message: String) {
    violations.append(InvariantViolation(controller: node.id, message: message))
  }

  /// Checks one controller and its links to its children; false if it was
  /// reached before (its children are then not visited again).
  private mutating func visit(_ held: LinkSection, _ controller: any ViewController, automaticallyForwarded: Bool)
    -> Bool
  {
    let node = controller.node
    guard visited.insert(ObjectIdentifier(node)).inserted else {
      fail(node, "reached twice: the tree has a cycle or a shared child")
      return false
    }
    // Checked before its links are read: they are guarded by its domain.
    guard node.linkDomain == domain else {
      fail(node, "is linked into a tree whose links another lock guards")
      return false
    }
    if node.hierarchy.linkDomain != domain {
      fail(node, "has an exclusion slot whose state another lock guards than its links")
    }
    if let view = node[held].view, view.linkDomain != domain {
      fail(node, "has a view whose links another lock guards than its own")
      return true
    }
    let state = node[held].appearance.machine.state
    if quiescent, state == .appearing || state == .disappearing, automaticallyForwarded {
      fail(node, "still \(state) at a quiescent point")
    }
    if quiescent, automaticallyForwarded {
      let onScreen = node[held].view?.window(held) != nil
      let parentAppeared = node[held].parent.map { $0.node[held].appearance.machine.state == .appeared } ?? true
      if onScreen && parentAppeared && state != .appeared && node[held].parent != nil {
        fail(node, "view is in a window but state is \(state)")
      }
      if !onScreen && state == .appeared {
        fail(node, "state is appeared but the view is not in a window")
      }
    }
    var seen: Set<ObjectIdentifier> = []
    for child in node[held].children {
      // Read only under the lock this section holds; `visit` reports the child.
      guard child.node.linkDomain == domain else { continue }
      if !child.node.hasParent(held, controller) {
        fail(child.node, "is a child of \(node.name) but names another parent")
      }
      if !seen.insert(ObjectIdentifier(child.node)).inserted {
        fail(child.node, "appears twice in \(node.name).children")
      }
      if let childView = child.node[held].view, childView[held].superview != nil {
        if let view = node[held].view, !view.isAncestorOrSelf(held, of: childView), childView.window(held) != nil {
          fail(child.node, "view is installed outside its parent's hierarchy")
        }
      }
    }
    if let view = node[held].view {
      for subview in view[held].subviews {
        guard subview.linkDomain == domain else {
          fail(node, "has a subview whose links another lock guards than its own")
          continue
        }
        for (_, owner) in subview.topOwnedViews(held) {
          // An owner under another lock is reported where it is visited.
          guard owner.node.linkDomain == domain else { continue }
          if !owner.node.hasParent(held, controller) {
            fail(owner.node, "view is in \(node.name)'s hierarchy but it is not \(node.name)'s child")
          }
        }
      }
    }
    return true
  }
}
