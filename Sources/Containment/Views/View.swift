import Synchronization

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
public final class View: @unchecked Sendable, CustomStringConvertible {
  /// Debug label.
  public let label: String

  /// The link domain guarding ``Links`` (``TreeLock``).
  let domain = Atomic<Int>(TreeLock.domainForNewObject())

  // MARK: Guarded by TreeLock

  /// The links and geometry a link domain guards; reached through
  /// ``_links`` (checked in debug builds) or the accessors below.
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
  // Release builds skip Swift's dynamic exclusivity checks here, as for a
  // controller's links (see `ControllerNode.links`).
  #if DEBUG
    private var links: Links
  #else
    @exclusivity(unchecked) private var links: Links
  #endif

  /// The guarded state; only with the lock of this view's domain held.
  var _links: Links {
    _read {
      TreeLock.assertHeld(self)
      yield links
    }
    _modify {
      TreeLock.assertHeld(self)
      yield &links
    }
  }
  var _frame: Rect {
    _read { yield _links.frame }
    _modify { yield &_links.frame }
  }
  var _superview: View? {
    get { _links.superview }
    set { _links.superview = newValue }
  }
  var _subviews: [View] {
    _read { yield _links.subviews }
    _modify { yield &_links.subviews }
  }
  var _hostWindow: Window? {
    get { _links.hostWindow }
    set { _links.hostWindow = newValue }
  }
  /// Under the link lock: whether `view` is this view's superview, without
  /// retaining either.
  func _hasSuperview(_ view: View) -> Bool {
    _links.superviewLink?.refers(to: view) ?? false
  }
  var _owner: (any ViewController)? {
    get { _links.owner }
    set { _links.owner = newValue }
  }
  var _constraints: [LayoutConstraint<ObjectIdentifier>] {
    _read { yield _links.constraints }
    _modify { yield &_links.constraints }
  }
  var _isHidden: Bool {
    _read { yield _links.isHidden }
    _modify { yield &_links.isHidden }
  }

  /// Creates a detached view.
  public init(frame: Rect = .zero, label: String = "view") {
    self.links = Links(frame: frame)
    self.label = label
  }

  deinit {
    // A deep view hierarchy is released without recursing once per level.
    IterativeRelease.release(&links.subviews)
  }

  /// A readable description.
  public var description: String { "View(\(label), \(frame))" }

  /// The frame, in the superview's coordinate space.
  public var frame: Rect {
    get { TreeLock.withLock(self) { held in _frame } }
    set { TreeLock.withLock(self) { held in _frame = newValue } }
  }

  /// The view's own coordinate space: origin zero, the frame's size.
  public var bounds: Rect {
    TreeLock.withLock(self) { held in Rect(x: 0, y: 0, width: _frame.width, height: _frame.height) }
  }

  /// Whether the view is hidden. Hiding does not cause appearance hooks.
  public var isHidden: Bool {
    get { TreeLock.withLock(self) { held in _isHidden } }
    set { TreeLock.withLock(self) { held in _isHidden = newValue } }
  }

  /// The superview, or nil. Never keeps the superview alive.
  public var superview: View? { TreeLock.withLock(self) { held in _superview } }

  /// The subviews, back to front.
  public var subviews: [View] { TreeLock.withLock(self) { held in _subviews } }

  /// The window this view is in, or nil when it is off screen.
  public var window: Window? { TreeLock.withLock(self) { held in _window() } }

  /// True if `self` is `view` or one of its ancestors.
  public func isAncestor(of view: View) -> Bool {
    TreeLock.withLock(self, view) { held in _isAncestorOrSelf(of: view) }
  }

  // MARK: Constraints

  /// The constraints installed on this view (each relates views of its subtree).
  public var constraints: [LayoutConstraint<ObjectIdentifier>] { TreeLock.withLock(self) { held in _constraints } }

  /// Installs constraints; they take effect at the next ``layoutIfNeeded()``.
  public func addConstraints(_ constraints: [LayoutConstraint<ObjectIdentifier>]) {
    TreeLock.withLock(self) { held in _constraints.append(contentsOf: constraints) }
  }

  /// Removes every constraint installed on this view.
  public func removeAllConstraints() {
    TreeLock.withLock(self) { held in _constraints.removeAll() }
  }

  /// Resolves the constraints installed in this view's subtree and assigns the
  /// resulting frames. Synchronous; the view's own frame is fixed input.
  /// Returns the constraints that could not be satisfied.
  @discardableResult
  public func layoutIfNeeded() -> [LayoutConstraint<ObjectIdentifier>] {
    TreeLock.withLock(self) { held in
      var nodes: [ObjectIdentifier: LayoutSolver<ObjectIdentifier>.Node] = [:]
      var constraints: [LayoutConstraint<ObjectIdentifier>] = []
      var byID: [ObjectIdentifier: View] = [:]
      func visit(_ view: View, superview: View?) {
        let id = ObjectIdentifier(view)
        byID[id] = view
        nodes[id] = .init(superview: superview.map(ObjectIdentifier.init), frame: view._frame)
        constraints.append(contentsOf: view._constraints)
        for subview in view._subviews { visit(subview, superview: view) }
      }
      visit(self, superview: nil)
      let result = LayoutSolver<ObjectIdentifier>().solve(nodes: nodes, constraints: constraints)
      for (id, frame) in result.frames where id != ObjectIdentifier(self) {
        byID[id]?._frame = frame
      }
      return result.unsatisfied
    }
  }

  // MARK: Lock-held helpers

  func _window() -> Window? {
    var view = self
    while let superview = view._superview { view = superview }
    return view._hostWindow
  }

  func _isAncestorOrSelf(of other: View) -> Bool {
    var view: View? = other
    while let current = view {
      if current === self { return true }
      view = current._superview
    }
    return false
  }

  /// The nearest controller whose root view is `self` or an ancestor of it.
  func _governingController() -> (any ViewController)? {
    var view: View? = self
    while let current = view {
      if let owner = current._owner { return owner }
      view = current._superview
    }
    return nil
  }

  /// The topmost controller-owned views inside this subtree (self included),
  /// in depth-first order; their own subtrees are not searched further.
  func _topOwnedViews() -> [(View, any ViewController)] {
    var result: [(View, any ViewController)] = []
    var stack: [View] = [self]
    while let view = stack.popLast() {
      if let owner = view._owner {
        result.append((view, owner))
      } else {
        stack.append(contentsOf: view._subviews.reversed())
      }
    }
    return result
  }

  func _link(_ subview: View, at index: Int? = nil) {
    if let old = subview._superview { old._removeSubview(subview) }
    TreeLock._join(subview, into: linkDomain)
    subview._superview = self
    if let index, index < _subviews.count {
      _subviews.insert(subview, at: max(0, index))
    } else {
      _subviews.append(subview)
    }
  }

  func _unlink() {
    guard let superview = _superview else { return }
    superview._removeSubview(self)
    _superview = nil
  }

  /// Removes `subview` from the subviews, searching from the front-most
  /// one: views come and go mostly at the front, so this does not grow
  /// with the number of siblings behind them.
  private func _removeSubview(_ subview: View) {
    if let index = _subviews.lastIndex(where: { $0 === subview }) { _subviews.remove(at: index) }
  }
}

extension View: LinkGuarded {
  var linkDomain: Int { domain.load(ordering: .relaxed) }
}
