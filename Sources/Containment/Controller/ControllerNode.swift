import Synchronization

/// The runtime's state for one controller: its identity, its transaction
/// queue, its event streams and its place in its tree.
///
/// A controller stores exactly one, created in its initialiser:
/// `nonisolated let node = ControllerNode(name: "Profile")`.
///
/// Isolation: the node is not an actor, and holds only constants. What
/// changes — its links, view, appearance state and the rest of its place in
/// its tree — lives in a runtime object of its own, reached only under its tree's
/// link lock (CONCURRENCY.md, "The link locks"), so that any actor can read
/// a consistent picture of several controllers at once; its transaction
/// queue and broadcasters have their own small locks. Reading a property is
/// synchronous and never suspends.
public final class ControllerNode: Sendable {
  /// Stable identity, unique in the process.
  public let id: ControllerID
  /// Debug name, used in event paths and diagnostics.
  public let name: String

  let queue: TransactionQueue
  /// The controller's stream; what it reports to a new subscriber
  /// (``ReportedState``) is kept under its lock.
  let events: Broadcaster<LifecycleEvent>
  /// Its place in its tree: everything its tree's link domain guards.
  let links: ControllerLinks
  /// The transaction that last delivered it a hook (R2).
  let engagement = Engagement()

  /// Its hierarchical exclusion slot (in ``links``).
  var hierarchy: HierarchySlot { links.hierarchy }

  typealias Links = ControllerLinks.State

  /// The guarded state; only with the lock of this node's domain held
  /// (checked in debug builds).
  var _links: Links {
    _read { yield links._state }
    _modify { yield &links._state }
  }

  var _parent: (any ViewController)? {
    get { _links.parent }
    set { _links.parent = newValue }
  }
  var _children: [any ViewController] {
    _read { yield _links.children }
    _modify { yield &_links.children }
  }
  var _view: View? {
    _read { yield _links.view }
    _modify { yield &_links.view }
  }
  var _viewLoad: ViewLoadState {
    _read { yield _links.viewLoad }
    _modify { yield &_links.viewLoad }
  }
  var _appearance: AppearanceMachine {
    _read { yield _links.appearance }
    _modify { yield &_links.appearance }
  }
  var _isMovingToParent: Bool {
    _read { yield _links.isMovingToParent }
    _modify { yield &_links.isMovingToParent }
  }
  var _isMovingFromParent: Bool {
    _read { yield _links.isMovingFromParent }
    _modify { yield &_links.isMovingFromParent }
  }
  var _reservation: UInt64? {
    _read { yield _links.reservation }
    _modify { yield &_links.reservation }
  }
  var _isTornDown: Bool {
    _read { yield _links.isTornDown }
    _modify { yield &_links.isTornDown }
  }
  var _isFaulted: Bool {
    _read { yield _links.isFaulted }
    _modify { yield &_links.isFaulted }
  }
  var _environment: ContainmentEnvironment? {
    get { _links.environment.value }
    set { _links.environment.value = newValue }
  }
  var _treeEvents: Broadcaster<LifecycleEvent>? {
    _read { yield _links.treeEvents }
    _modify { yield &_links.treeEvents }
  }
  var _containerAttributes: OutOfLine<ContainerAttributes> {
    _read { yield _links.containerAttributes }
    _modify { yield &_links.containerAttributes }
  }
  var _window: Window? {
    get { _links.window }
    set { _links.window = newValue }
  }
  var _departure: Departure? {
    _read { yield _links.departure }
    _modify { yield &_links.departure }
  }
  var _presentation: OutOfLine<PresentationLinks> {
    _read { yield _links.presentation }
    _modify { yield &_links.presentation }
  }
  var _cachedPosition: TreePosition? {
    _read { yield _links.cachedPosition }
    _modify { yield &_links.cachedPosition }
  }
  var _idleWaiters: Int {
    _read { yield _links.idleWaiters }
    _modify { yield &_links.idleWaiters }
  }
  var _viewReaderObservers: CountObservers {
    _read { yield _links.viewReaderObservers }
    _modify { yield &_links.viewReaderObservers }
  }

  struct WeakNode: Sendable {
    weak var node: ControllerNode?
  }

  struct Departure {
    /// The former parent's position at the moment of the unlink.
    let position: TreePosition
  }

  enum ViewLoadState {
    case notLoaded
    case loading([UnsafeContinuation<View, Never>])
    case loaded
  }

  /// Creates the state for one controller. `name` appears in event paths;
  /// defaults to "controller".
  public init(name: String = "controller") {
    let id = ControllerID.next()
    let links = ControllerLinks(domain: TreeLock.domainForNewObject())
    self.links = links
    self.id = id
    self.name = name
    self.queue = TransactionQueue(owner: links.hierarchy)
    self.events = ControllerNode.makeBroadcaster(id: id, name: name)
  }

  deinit {
    // Nobody else can reach this controller's links any more: no lock.
    let links = self.links
    if !links.stateInDeinit.children.isEmpty {
      // Children that someone else keeps alive are roots now: their cached
      // positions, derived from this controller's, must go.
      let orphans = links.stateInDeinit.children.map { WeakNode(node: $0.node) }
      TreeLock.afterRelease(in: linkDomain) {
        for orphan in orphans { orphan.node?._becameRoot() }
      }
    }
    // Children (and their subtrees) are released iteratively: a chain of any
    // depth must not overflow the stack.
    IterativeRelease.release(&links.stateInDeinit.children)
    let final = terminatedEvent()
    events.finish(final: final)
    if let tree = links.stateInDeinit.treeEvents {
      tree.finish(final: final)
      TreeEventStreams.released()
    }
  }

  static func makeBroadcaster(id: ControllerID, name: String) -> Broadcaster<LifecycleEvent> {
    Broadcaster(
      lostMarker: { count in
        LifecycleEvent(
          controller: id, name: name, path: name, sequenceNumber: -1, transaction: nil,
          timestamp: .zero, kind: .eventsLost(count: count))
      },
      laggedMarker: {
        LifecycleEvent(
          controller: id, name: name, path: name, sequenceNumber: -1, transaction: nil,
          timestamp: .zero, kind: .lagged)
      })
  }

  // MARK: Reading

  /// The parent, or nil. Never keeps the parent alive.
  package var parent: (any ViewController)? { TreeLock.withLock(self) { held in _parent } }
  /// The children, in order.
  package var children: [any ViewController] { TreeLock.withLock(self) { held in _children } }
  /// The root view if it was loaded, without loading it.
  package var viewIfLoaded: View? { TreeLock.withLock(self) { held in _view } }
  /// Whether the root view was loaded.
  package var isViewLoaded: Bool { TreeLock.withLock(self) { held in _view != nil } }
  /// The current appearance state (§3).
  package var appearanceState: AppearanceState { TreeLock.withLock(self) { held in _appearance.state } }
  /// True during the appearance hooks caused by being added to a parent (A5).
  package var isMovingToParent: Bool { TreeLock.withLock(self) { held in _isMovingToParent } }
  /// True during the appearance hooks caused by being removed from a parent (A5).
  package var isMovingFromParent: Bool { TreeLock.withLock(self) { held in _isMovingFromParent } }
  /// Whether the controller's tree was torn down (§8, last case).
  package var isTornDown: Bool { TreeLock.withLock(self) { held in _isTornDown } }

  /// The environment (clock) of this controller: its own if set, else the
  /// nearest ancestor's, else its window's, else ``ContainmentEnvironment/default``.
  package var environment: ContainmentEnvironment {
    get { TreeLock.withLock(self) { held in _resolvedEnvironment() } }
    set {
      TreeLock.withLock(self) { held in
        _environment = newValue
        _invalidatePositions()
      }
    }
  }

  /// The size this controller would like its container to give it. Setting it
  /// tells the parent through `preferredContentSizeDidChange(forChild:)`
  /// (D2); use ``ViewController/setPreferredContentSize(_:)`` to await that.
  package var preferredContentSize: Size {
    TreeLock.withLock(self) { held in _containerAttributes.value.preferredContentSize }
  }

  // MARK: Lock-held helpers (call only inside TreeLock.withLock)

  func _resolvedEnvironment() -> ContainmentEnvironment {
    _position().environment ?? .default
  }

  /// Names from the root down to this controller, joined by "/".
  func _path() -> String { _position().path }

  /// Under the link lock: unlinks this controller from its parent (the
  /// caller removes it from the parent's children), keeping the route of its
  /// events to its former ancestors' tree streams until
  /// `didMove(toParent: nil)` — the last event of every removal (C2, C4)
  /// — has been delivered. Every unlink goes through here.
  func _detachFromParent() {
    guard let parent = _parent?.node else { return }
    let position = parent._position()
    HierarchyExclusion._treeChanged(from: position.treeSlot, to: hierarchy, leaving: self)
    _departure = Departure(position: position)
    _parent = nil
    _invalidatePositions()
  }

  /// Under the link lock: links this controller under `parent` (the caller
  /// adds it to the parent's children). Every link goes through here.
  func _attach(to parent: any ViewController) {
    // A parentless controller's tree slot needs no position (adding a fresh
    // leaf makes none only to drop it).
    let old = _parent == nil ? (_cachedPosition?.treeSlot ?? _window?.hierarchy ?? hierarchy) : _position().treeSlot
    HierarchyExclusion._treeChanged(from: old, to: parent.node._position().treeSlot)
    TreeLock._join(self, into: parent.node.linkDomain)
    _parent = parent
    _invalidatePositions()
  }

  /// Under the link lock: this controller stops being a child (its parent
  /// was released while it lives on) or a window's root (the window was
  /// released). Its tree is now its own.
  func _becameRoot() {
    // A released parent's or window's memory is kept allocated by the
    // back-link until it is dropped (``BackLink``).
    if _links.parentLink != nil, _links.parent == nil { _links.parentLink = nil }
    if _links.windowLink != nil, _links.window == nil { _links.windowLink = nil }
    guard let position = _cachedPosition else { return }
    HierarchyExclusion._treeChanged(from: position.treeSlot, to: hierarchy)
    _invalidatePositions()
  }

  /// Under the link lock: ends a departure (the removal's last hook ran).
  func _endDeparture() {
    guard _departure != nil else { return }
    _departure = nil
    _invalidatePositions()
  }

  /// Under the lock of `container`'s domain: whether this controller is its
  /// child. Safe to ask of a controller that left it for another tree (a
  /// container's remembered selection): one in another domain is nobody's
  /// child here, and its links are not read.
  func _isChild(of container: any ViewController) -> Bool {
    linkDomain == container.node.linkDomain && _hasParent(container)
  }

  /// Under the link lock: whether `container` is this controller's parent,
  /// without retaining either.
  func _hasParent(_ container: AnyObject) -> Bool {
    _links.parentLink?.refers(to: container) ?? false
  }

  /// True if `self` is `other` or one of its ancestors (a presenter counts
  /// as the ancestor of what it presents).
  func _isAncestorOrSelf(of other: ControllerNode) -> Bool {
    var node: ControllerNode? = other
    while let current = node {
      if current === self { return true }
      node = current._treeParent
    }
    return false
  }

  /// Under the link lock: what stands above this controller in its tree: its
  /// parent, or the controller presenting it (§10).
  var _treeParent: ControllerNode? { _parent?.node ?? _presenting?.node }

  /// Under the link lock: links this controller as presented by `presenter`
  /// (the caller sets the presenter's `_presented`). Every presentation link
  /// goes through here.
  func _attachPresented(to presenter: any ViewController) {
    let old = _cachedPosition?.treeSlot ?? _window?.hierarchy ?? hierarchy
    HierarchyExclusion._treeChanged(from: old, to: presenter.node._position().treeSlot)
    TreeLock._join(self, into: presenter.node.linkDomain)
    _presenting = presenter
    _invalidatePositions()
  }

  /// Under the link lock: ends this controller's presentation, on both
  /// sides of the link. Returns its presenter and style, for the `dismissed`
  /// event the caller emits once the lock is released; nil if it was not
  /// presented. Every presentation ends through here, after what this
  /// controller's tree presents has ended (`runDismissal`).
  func _endPresentation() -> (presenter: ControllerNode, style: PresentationStyle)? {
    guard let presenter = _presenting?.node else { return nil }
    let style = _presentationStyle ?? .pageSheet
    presenter._presented = nil
    _coveredLayer = nil
    HierarchyExclusion._treeChanged(from: _position().treeSlot, to: hierarchy, leaving: self)
    _presenting = nil
    _presentationStyle = nil
    _invalidatePositions()
    return (presenter, style)
  }

  /// The window this controller's tree is shown in, if its root is a window's root.
  func _hostingWindow() -> Window? { _position().window }
}

extension ControllerNode: LinkGuarded {
  var linkDomain: Int { links.linkDomain }
}
