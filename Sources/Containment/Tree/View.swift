import ContainmentLocking

/// A headless view: a frame in its superview's coordinates, a list of
/// subviews, membership in a window, and a small set of layout constraints
/// (§1).
///
/// Isolation: a view is shared by the controllers of one tree, so it is not
/// owned by any one actor. Its links and geometry are guarded by its tree's
/// link lock; every property read or write is a short,
/// synchronous critical section, safe from any task. Changes that move views
/// in or out of a window (and so cause appearance hooks) are `async`: they run
/// as a transaction of the container that owns the superview (see
/// ``addSubview(_:)``).
///
public final class View: Sendable, CustomStringConvertible, LinkCellOwner {
  /// Debug label.
  public let label: String

  // MARK: Guarded by TreeLock

  /// The links and geometry a link domain guards; reached only inside a
  /// ``TreeLock`` section (`view[held]`).
  struct Links {
    var frame: Rect
    var superviewLink: BackLink<View>?
    var subviews: [View] = []
    /// Set on a window's own root view.
    var hostWindowLink: BackLink<Window>?
    /// The controller whose root view this is.
    var ownerLink: ControllerBackLink?
    var constraints: [LayoutConstraint<ObjectIdentifier>] = []
    var isHidden = false

    // Back-links (``BackLink``): they never keep their targets alive.
    var superview: View? {
      get { superviewLink?.value }
      set { superviewLink = newValue.map(BackLink.init) }
    }
    var hostWindow: Window? {
      get { hostWindowLink?.value }
      set { hostWindowLink = newValue.map(BackLink.init) }
    }
    var owner: (any ViewController)? {
      get { ownerLink?.value }
      set { ownerLink = newValue.map(ControllerBackLink.init) }
    }
  }
  /// The guarded state's cell; its domain is the view's (``linkDomain``).
  let links: LinkCell<Links>

  func hasSuperview(_ held: LinkSection, _ view: View) -> Bool {
    self[held].superviewLink?.refers(to: view) ?? false
  }
  /// Creates a detached view.
  public init(frame: Rect = .zero, label: String = "view") {
    self.links = LinkCell(Links(frame: frame), domain: TreeLock.domainForNewObject())
    self.label = label
  }

  deinit {
    // A deep view hierarchy is released without recursing once per level.
    IterativeRelease.release(&links.releasing.subviews)
  }

  /// A readable description.
  public var description: String { "View(\(label), \(frame))" }

  /// The frame, in the superview's coordinate space.
  public var frame: Rect {
    get { TreeLock.withLock(self) { held in self[held].frame } }
    set { TreeLock.withLock(self) { held in self[held].frame = newValue } }
  }

  /// The view's own coordinate space: origin zero, the frame's size.
  public var bounds: Rect {
    TreeLock.withLock(self) { held in Rect(x: 0, y: 0, width: self[held].frame.width, height: self[held].frame.height) }
  }

  /// Whether the view is hidden.
  ///
  /// Hiding does not cause appearance hooks.
  public var isHidden: Bool {
    get { TreeLock.withLock(self) { held in self[held].isHidden } }
    set { TreeLock.withLock(self) { held in self[held].isHidden = newValue } }
  }

  /// The superview, or nil.
  ///
  /// Never keeps the superview alive.
  public var superview: View? { TreeLock.withLock(self) { held in self[held].superview } }

  /// The subviews, back to front.
  public var subviews: [View] { TreeLock.withLock(self) { held in self[held].subviews } }

  /// The window this view is in, or nil when it is off screen.
  public var window: Window? { TreeLock.withLock(self) { held in window(held) } }

  /// True if `self` is `view` or one of its ancestors.
  public func isAncestor(of view: View) -> Bool {
    TreeLock.withLock(self, view) { held in isAncestorOrSelf(held, of: view) }
  }

  // MARK: Constraints

  /// The constraints installed on this view (each relates views of its subtree).
  public var constraints: [LayoutConstraint<ObjectIdentifier>] {
    TreeLock.withLock(self) { held in self[held].constraints }
  }

  /// Installs constraints; they take effect at the next ``layoutIfNeeded()``.
  public func addConstraints(_ constraints: [LayoutConstraint<ObjectIdentifier>]) {
    TreeLock.withLock(self) { held in self[held].constraints.append(contentsOf: constraints) }
  }

  /// Removes every constraint installed on this view.
  public func removeAllConstraints() {
    TreeLock.withLock(self) { held in self[held].constraints.removeAll() }
  }

  /// Resolves the constraints installed in this view's subtree and assigns the
  /// resulting frames.
  ///
  /// Synchronous; the view's own frame is fixed input. Returns the constraints
  /// that could not be satisfied.
  @discardableResult
  public func layoutIfNeeded() -> [LayoutConstraint<ObjectIdentifier>] {
    TreeLock.withLock(self) { held in
      var nodes: [ObjectIdentifier: LayoutSolver<ObjectIdentifier>.Node] = [:]
      var constraints: [LayoutConstraint<ObjectIdentifier>] = []
      var byID: [ObjectIdentifier: View] = [:]
      func visit(_ view: View, superview: View?) {
        let id = ObjectIdentifier(view)
        byID[id] = view
        nodes[id] = .init(superview: superview.map(ObjectIdentifier.init), frame: view[held].frame)
        constraints.append(contentsOf: view[held].constraints)
        for subview in view[held].subviews { visit(subview, superview: view) }
      }
      visit(self, superview: nil)
      let result = LayoutSolver<ObjectIdentifier>().solve(nodes: nodes, constraints: constraints)
      for (id, frame) in result.frames where id != ObjectIdentifier(self) {
        byID[id]?[held].frame = frame
      }
      return result.unsatisfied
    }
  }

  // MARK: Lock-held helpers

  func window(_ held: LinkSection) -> Window? {
    var view = self
    while let superview = view[held].superview { view = superview }
    return view[held].hostWindow
  }

  func isAncestorOrSelf(_ held: LinkSection, of other: View) -> Bool {
    if other === self { return true }
    var view = other
    // Each step compares the superview link by identity before following it:
    // the usual answer (a direct subview) retains nothing.
    while let link = view[held].superviewLink {
      if link.refers(to: self) { return true }
      guard let superview = link.value else { return false }
      view = superview
    }
    return false
  }

  /// The nearest controller whose root view is `self` or an ancestor of it.
  func governingController(_ held: LinkSection) -> (any ViewController)? {
    var view: View? = self
    while let current = view {
      if let owner = current[held].owner { return owner }
      view = current[held].superview
    }
    return nil
  }

  /// The topmost controller-owned views inside this subtree (self included),
  /// in depth-first order; their own subtrees are not searched further.
  func topOwnedViews(_ held: LinkSection) -> [(View, any ViewController)] {
    var result: [(View, any ViewController)] = []
    var stack: [View] = [self]
    while let view = stack.popLast() {
      if let owner = view[held].owner {
        result.append((view, owner))
      } else {
        stack.append(contentsOf: view[held].subviews.reversed())
      }
    }
    return result
  }

  func link(_ held: LinkSection, _ subview: View, at index: Int? = nil) {
    if let old = subview[held].superview { old.removeSubview(held, subview) }
    TreeLock.join(held, subview, into: linkDomain)
    subview[held].superview = self
    if let index, index < self[held].subviews.count {
      self[held].subviews.insert(subview, at: max(0, index))
    } else {
      self[held].subviews.append(subview)
    }
  }

  func unlink(_ held: LinkSection) {
    guard let superview = self[held].superview else { return }
    superview.removeSubview(held, self)
    self[held].superview = nil
  }

  /// Removes `subview` from the subviews, searching from the front-most
  /// one: views come and go mostly at the front, so this does not grow
  /// with the number of siblings behind them.
  private func removeSubview(_ held: LinkSection, _ subview: View) {
    if let index = self[held].subviews.lastIndex(where: { $0 === subview }) { self[held].subviews.remove(at: index) }
  }
}

extension View: LinkedObject {
  /// The link domain guarding this object (``LinkGuarded``).
  ///
  /// Locking-layer SPI, not API: the locking module needs it public to inline
  /// its sections.
  @_spi(Locking) public var linkDomain: Int { links.linkDomain }

  /// The objects this one links to (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func appendLinkedObjects(_ held: LinkSection, to objects: inout [any LinkedObject]) {
    // Field by field (see `ControllerNode.appendLinkedObjects`).
    if let superview = self[held].superview { objects.append(superview) }
    for subview in self[held].subviews { objects.append(subview) }
    if let window = self[held].hostWindow { objects.append(window) }
    if let owner = self[held].owner { objects.append(owner.node) }
  }

  /// Records a move to another link domain (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func move(_ held: LinkSection, from old: Int, to domain: Int) {
    links.domain.store(domain, ordering: .relaxed)
  }
}
