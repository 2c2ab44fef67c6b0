import Synchronization

/// The runtime's state for one controller: its links, view, appearance state,
/// transaction queue and event streams.
///
/// A controller stores exactly one, created in its initialiser:
/// `nonisolated let node = ControllerNode(name: "Profile")`.
///
/// Isolation: the node is not an actor. Its links and appearance state are
/// guarded by the process-wide link lock (CONCURRENCY.md, "The link lock") so
/// that any actor can read a consistent picture of several controllers at
/// once; its transaction queue and broadcasters have their own small locks.
/// Reading a property is synchronous and never suspends.
public final class ControllerNode: @unchecked Sendable {
  /// Stable identity, unique in the process.
  public let id: ControllerID
  /// Debug name, used in event paths and diagnostics.
  public let name: String

  let queue: TransactionQueue
  /// Hierarchical exclusion state; guarded by the link lock.
  let hierarchy = HierarchySlot()
  let events: Broadcaster<LifecycleEvent>
  /// What the controller's stream has reported; guarded by its own leaf lock,
  /// taken inside the broadcaster's lock when an event is stamped.
  let reported = Locked(ReportedState())

  // MARK: Guarded by TreeLock
  weak var _parent: (any ViewController)?
  var _children: [any ViewController] = []
  var _view: View?
  var _viewLoad: ViewLoadState = .notLoaded
  var _appearance = AppearanceMachine()
  var _isMovingToParent = false
  var _isMovingFromParent = false
  /// Set while a move between containers has removed this controller from
  /// its old parent and not yet added it to the new one.
  var _reservation: UInt64?
  var _isTornDown = false
  /// A hook of this controller ran past its deadline (V1): no hook is called
  /// on it any more.
  var _isFaulted = false
  var _environment: ContainmentEnvironment?
  var _treeEvents: Broadcaster<LifecycleEvent>?
  /// The navigation item and preferred content size (`ContainerAttributes`).
  var _containerAttributes = OutOfLine<ContainerAttributes>()
  /// Set while the controller is a window's root.
  weak var _window: Window?
  /// Set while a removal's hooks run after the controller was unlinked: where
  /// its events still go (its former ancestors' tree streams, E2).
  var _departure: Departure?
  /// Presentation links, style and flags (`PresentationLinks`, §10).
  var _presentation = OutOfLine<PresentationLinks>()
  /// This controller's place in its tree, derived from its parent's; nil
  /// until needed and whenever something it depends on changed.
  var _cachedPosition: TreePosition?

  struct WeakNode: Sendable {
    weak var node: ControllerNode?
  }
  /// Tests waiting for readers to block on a view load in progress.
  var _viewReaderObservers = CountObservers()

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
    self.id = id
    self.name = name
    self.queue = TransactionQueue()
    self.events = ControllerNode.makeBroadcaster(id: id, name: name)
  }

  deinit {
    if !_children.isEmpty {
      // Children that someone else keeps alive are roots now: their cached
      // positions, derived from this controller's, must go.
      let orphans = _children.map { WeakNode(node: $0.node) }
      TreeLock.afterRelease {
        for orphan in orphans { orphan.node?._becameRoot() }
      }
    }
    // Children (and their subtrees) are released iteratively: a chain of any
    // depth must not overflow the stack.
    IterativeRelease.release(&_children)
    let final = terminatedEvent()
    events.finish(final: final)
    if let tree = _treeEvents {
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
  package var parent: (any ViewController)? { TreeLock.withLock { _parent } }
  /// The children, in order.
  package var children: [any ViewController] { TreeLock.withLock { _children } }
  /// The root view if it was loaded, without loading it.
  package var viewIfLoaded: View? { TreeLock.withLock { _view } }
  /// Whether the root view was loaded.
  package var isViewLoaded: Bool { TreeLock.withLock { _view != nil } }
  /// The current appearance state (§3).
  package var appearanceState: AppearanceState { TreeLock.withLock { _appearance.state } }
  /// True during the appearance hooks caused by being added to a parent (A5).
  package var isMovingToParent: Bool { TreeLock.withLock { _isMovingToParent } }
  /// True during the appearance hooks caused by being removed from a parent (A5).
  package var isMovingFromParent: Bool { TreeLock.withLock { _isMovingFromParent } }
  /// Whether the controller's tree was torn down (§8, last case).
  package var isTornDown: Bool { TreeLock.withLock { _isTornDown } }

  /// The environment (clock) of this controller: its own if set, else the
  /// nearest ancestor's, else its window's, else ``ContainmentEnvironment/default``.
  package var environment: ContainmentEnvironment {
    get { TreeLock.withLock { _resolvedEnvironment() } }
    set {
      TreeLock.withLock {
        _environment = newValue
        _invalidatePositions()
      }
    }
  }

  /// The size this controller would like its container to give it. Setting it
  /// tells the parent through `preferredContentSizeDidChange(forChild:)`
  /// (D2); use ``ViewController/setPreferredContentSize(_:)`` to await that.
  package var preferredContentSize: Size { TreeLock.withLock { _containerAttributes.value.preferredContentSize } }

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
    HierarchyExclusion._treeChanged(from: position.treeSlot, to: hierarchy)
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
    _parent = parent
    _invalidatePositions()
  }

  /// Under the link lock: this controller stops being a child (its parent
  /// was released while it lives on) or a window's root (the window was
  /// released). Its tree is now its own.
  func _becameRoot() {
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
    HierarchyExclusion._treeChanged(from: _position().treeSlot, to: hierarchy)
    _presenting = nil
    _presentationStyle = nil
    _invalidatePositions()
    return (presenter, style)
  }

  /// The window this controller's tree is shown in, if its root is a window's root.
  func _hostingWindow() -> Window? { _position().window }
}
