import ContainmentLocking

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
public final class ControllerNode: Sendable, LinkCellOwner {
  /// Stable identity, unique in the process.
  public let id: ControllerID
  /// Debug name, used in event paths and diagnostics.
  public let name: String

  /// Its transaction queue, created when first used: most controllers are
  /// leaves that never run a transaction of their own, and a queue with its
  /// lock is a sixth of an idle controller's memory.
  private let lazyQueue = LazyReference<TransactionQueue>()
  /// The controller's stream; what it reports to a new subscriber
  /// (``ReportedState``) is kept under its lock.
  let events: OwnedBroadcaster<LifecycleEvent>
  /// Its place in its tree: everything its tree's link domain guards.
  let links: LinkCell<ControllerLinks>
  /// Its hierarchical exclusion slot, guarded by the same link domain (the
  /// slot keeps a copy of the domain's index).
  let hierarchy: HierarchySlot
  /// The transaction that last delivered it a hook (R2).
  let engagement = Engagement()
  /// Set when its stop begins (V3): hooks from outside any transaction no
  /// longer run.
  let stopMark = StopMark()

  typealias Links = ControllerLinks

  /// The controller's transaction queue (R1), created on first use.
  var queue: TransactionQueue {
    if let queue = lazyQueue.load() { return queue }
    return lazyQueue.storeIfNil(TransactionQueue(owner: hierarchy))
  }

  /// The queue if it was ever used; nil means it is free and empty.
  var queueIfCreated: TransactionQueue? { lazyQueue.load() }

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

  /// Creates the state for one controller.
  ///
  /// `name` appears in event paths; defaults to "controller".
  public init(name: String = "controller") {
    let id = ControllerID.next()
    let domain = TreeLock.domainForNewObject()
    let hierarchy = HierarchySlot(domain: domain)
    self.links = LinkCell(ControllerLinks(), domain: domain)
    self.hierarchy = hierarchy
    self.id = id
    self.name = name
    self.events = OwnedBroadcaster(storage: BroadcasterStorage(id: id, name: name))
  }

  deinit {
    // Nobody else can reach this controller's links any more: no lock.
    let links = self.links
    if !links.releasing.children.isEmpty {
      // Children that someone else keeps alive are roots now: their cached
      // positions, derived from this controller's, must go.
      let orphans = links.releasing.children.map { WeakNode(node: $0.node) }
      TreeLock.afterRelease(in: linkDomain) { held in
        for orphan in orphans { orphan.node?.becameRoot(held) }
      }
    }
    // Children (and their subtrees) are released iteratively: a chain of any
    // depth must not overflow the stack.
    IterativeRelease.release(&links.releasing.children)
    let final = terminatedEvent()
    events.finish(final: final)
    if let tree = links.releasing.eventRouting.treeEvents {
      tree.finish(final: final)
      TreeEventStreams.released()
    }
  }

  static func makeBroadcaster(id: ControllerID, name: String) -> Broadcaster<LifecycleEvent> {
    Broadcaster(storage: BroadcasterStorage(id: id, name: name))
  }

  // MARK: Reading

  /// The parent, or nil.
  ///
  /// Never keeps the parent alive.
  package var parent: (any ViewController)? { TreeLock.withLock(self) { held in self[held].parent } }
  /// The children, in order.
  package var children: [any ViewController] { TreeLock.withLock(self) { held in self[held].children } }
  /// The root view if it was loaded, without loading it.
  package var viewIfLoaded: View? { TreeLock.withLock(self) { held in self[held].view } }
  /// Whether the root view was loaded.
  package var isViewLoaded: Bool { TreeLock.withLock(self) { held in self[held].view != nil } }
  /// The current appearance state (§3).
  package var appearanceState: AppearanceState {
    TreeLock.withLock(self) { held in self[held].appearance.machine.state }
  }
  /// True during the appearance hooks caused by being added to a parent (A5).
  package var isMovingToParent: Bool { TreeLock.withLock(self) { held in self[held].appearance.isMovingToParent } }
  /// True during the appearance hooks caused by being removed from a parent (A5).
  package var isMovingFromParent: Bool { TreeLock.withLock(self) { held in self[held].appearance.isMovingFromParent } }
  /// Whether the controller's tree was torn down (§8, last case).
  package var isTornDown: Bool { TreeLock.withLock(self) { held in self[held].supervision.isTornDown } }

  /// The environment (clock) of this controller: its own if set, else the
  /// nearest ancestor's, else its window's, else ``ContainmentEnvironment/default``.
  package var environment: ContainmentEnvironment {
    get { TreeLock.withLock(self) { held in resolvedEnvironment(held) } }
    set {
      TreeLock.withLock(self) { held in
        self[held].environment = newValue
        invalidatePositions(held)
      }
    }
  }

  /// The size this controller would like its container to give it.
  ///
  /// Setting it tells the parent through
  /// `preferredContentSizeDidChange(forChild:)` (D2); use
  /// ``ViewController/setPreferredContentSize(_:)`` to await that.
  package var preferredContentSize: Size {
    TreeLock.withLock(self) { held in self[held].containerAttributes.value.preferredContentSize }
  }

  // MARK: Lock-held helpers (call only inside TreeLock.withLock)

  func resolvedEnvironment(_ held: LinkSection) -> ContainmentEnvironment {
    position(held).environment ?? .default
  }

  /// Names from the root down to this controller, joined by "/".
  func path(_ held: LinkSection) -> String { position(held).path }

  /// Under the link lock: unlinks this controller from its parent (the
  /// caller removes it from the parent's children), keeping the route of its
  /// events to its former ancestors' tree streams until
  /// `didMove(toParent: nil)` — the last event of every removal (C2, C4)
  /// — has been delivered.
  ///
  /// Every unlink goes through here.
  func detachFromParent(_ held: LinkSection) {
    guard let parent = self[held].parent?.node else { return }
    let position = parent.position(held)
    HierarchySlot.treeChanged(held, from: position.treeSlot, to: hierarchy, leaving: self)
    self[held].eventRouting.departure = Departure(position: position)
    self[held].parent = nil
    hierarchy[held].leftATree = true
    invalidatePositions(held)
  }

  /// Under the link lock: links this controller under `parent` (the caller
  /// adds it to the parent's children).
  ///
  /// Every link goes through here.
  func attach(_ held: LinkSection, to parent: any ViewController) {
    // A parentless controller's tree slot needs no position (adding a fresh
    // leaf makes none only to drop it).
    let old =
      self[held].parent == nil
      ? (self[held].cachedPosition?.treeSlot ?? self[held].window?.hierarchy ?? hierarchy) : position(held).treeSlot
    let parentNode = parent.node
    HierarchySlot.treeChanged(held, from: old, to: parentNode.position(held).treeSlot)
    TreeLock.join(held, self, into: parentNode.linkDomain)
    self[held].parent = parent
    invalidatePositions(held)
  }

  /// Under the link lock: this controller stops being a child (its parent
  /// was released while it lives on) or a window's root (the window was
  /// released).
  ///
  /// Its tree is now its own.
  func becameRoot(_ held: LinkSection) {
    // A released parent's or window's memory is kept allocated by the
    // back-link until it is dropped (``BackLink``).
    if self[held].parentLink != nil, self[held].parent == nil { self[held].parentLink = nil }
    if self[held].windowLink != nil, self[held].window == nil { self[held].windowLink = nil }
    hierarchy[held].leftATree = true
    guard let position = self[held].cachedPosition else { return }
    HierarchySlot.treeChanged(held, from: position.treeSlot, to: hierarchy)
    invalidatePositions(held)
  }

  /// Under the link lock: ends a departure (the removal's last hook ran).
  func endDeparture(_ held: LinkSection) {
    guard self[held].eventRouting.departure != nil else { return }
    self[held].eventRouting.departure = nil
    invalidatePositions(held)
  }

  /// Under the lock of `container`'s domain: whether this controller is its
  /// child.
  ///
  /// Safe to ask of a controller that left it for another tree (a container's
  /// remembered selection): one in another domain is nobody's child here, and
  /// its links are not read.
  func isChild(_ held: LinkSection, of container: any ViewController) -> Bool {
    linkDomain == container.node.linkDomain && hasParent(held, container)
  }

  /// Under the link lock: whether `container` is this controller's parent,
  /// without retaining either.
  func hasParent(_ held: LinkSection, _ container: AnyObject) -> Bool {
    self[held].parentLink?.refers(to: container) ?? false
  }

  /// True if `self` is `other` or one of its ancestors (a presenter counts
  /// as the ancestor of what it presents).
  func isAncestorOrSelf(_ held: LinkSection, of other: ControllerNode) -> Bool {
    var node: ControllerNode? = other
    while let current = node {
      if current === self { return true }
      node = current[held].treeParent
    }
    return false
  }

  /// Under the link lock: links this controller as presented by `presenter`
  /// (the caller sets the presenter's `self[held].presented`).
  ///
  /// Every presentation link goes through here.
  func attachPresented(_ held: LinkSection, to presenter: any ViewController) {
    let old = self[held].cachedPosition?.treeSlot ?? self[held].window?.hierarchy ?? hierarchy
    HierarchySlot.treeChanged(held, from: old, to: presenter.node.position(held).treeSlot)
    TreeLock.join(held, self, into: presenter.node.linkDomain)
    self[held].presenting = presenter
    invalidatePositions(held)
  }

  /// Under the link lock: ends this controller's presentation, on both
  /// sides of the link.
  ///
  /// Returns its presenter and style, for the `dismissed` event the caller
  /// emits once the lock is released; nil if it was not presented. Every
  /// presentation ends through here, after what this controller's tree presents
  /// has ended (`runDismissal`).
  func endPresentation(_ held: LinkSection) -> (presenter: ControllerNode, style: PresentationStyle)? {
    guard let presenter = self[held].presenting?.node else { return nil }
    let style = self[held].presentationStyle ?? .pageSheet
    presenter[held].presented = nil
    self[held].coveredLayer = nil
    HierarchySlot.treeChanged(held, from: position(held).treeSlot, to: hierarchy, leaving: self)
    self[held].presenting = nil
    self[held].presentationStyle = nil
    hierarchy[held].leftATree = true
    invalidatePositions(held)
    return (presenter, style)
  }

  /// Gives this controller's tree a link domain of its own if its root left
  /// another tree and nothing runs, waits or is adopted in it (R5: trees
  /// that were linked and are separated again share nothing again).
  ///
  /// Called before a top-level transaction of the tree is admitted
  /// (``HierarchyExclusion``), in a section of its own: a tree separates at
  /// its first transaction after it left, so a controller that is popped and
  /// pushed again, or dismissed and never used, never moves. Moves nothing
  /// if the root's view is still a subview elsewhere (then the trees are
  /// linked after all). O(size of the tree).
  ///
  /// A task waiting for the tree to be idle is checked again under the new
  /// lock: no queue of the tree it left looks there.
  func separateTreeIfItLeftAnother() {
    let separated = TreeLock.separate(self) { held in
      let tree = position(held).treeSlot
      guard tree[held].leftATree, tree[held].treeMarks.isEmpty, tree[held].adoptions == 0 else { return false }
      tree[held].leftATree = false
      var root = self
      while let above = root[held].treeParent { root = above }
      return root.hierarchy === tree && root[held].window == nil && root[held].view?[held].superview == nil
    }
    if let separated { IdleWaiters.treeSeparated(intoDomain: separated) }
  }

  /// The window this controller's tree is shown in, if its root is a window's root.
  func hostingWindow(_ held: LinkSection) -> Window? { position(held).window }
}

extension ControllerNode: LinkedObject {
  /// The link domain guarding this object (``LinkGuarded``).
  ///
  /// Locking-layer SPI, not API: the locking module needs it public to inline
  /// its sections.
  @_spi(Locking) public var linkDomain: Int { links.linkDomain }

  /// The objects this one links to (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func appendLinkedObjects(_ held: LinkSection, to objects: inout [any LinkedObject]) {
    // Field by field, not `let links = self[held]`: a copy of the whole
    // struct retained and released each of its references, for every
    // controller of a tree that joins another (a tree shown in a window).
    if let parent = self[held].parent { objects.append(parent.node) }
    for child in self[held].children { objects.append(child.node) }
    if let view = self[held].view { objects.append(view) }
    if let window = self[held].window { objects.append(window) }
    let presentation = self[held].presentation.value
    if let presented = presentation.presented { objects.append(presented.node) }
    if let presenting = presentation.presenting { objects.append(presenting.node) }
    if let covered = presentation.coveredLayer { objects.append(covered.view) }
    if self[held].containerAttributes.isWritten {
      for leaving in self[held].containerAttributes.value.leavingChildren { objects.append(leaving) }
    }
  }

  /// Records a move to another link domain (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func move(_ held: LinkSection, from old: Int, to domain: Int) {
    let waiters = self[held].idleWaiters
    if waiters > 0 { IdleWaiters.moved(held, Int(waiters), from: old, into: domain) }
    hierarchy.countBeforeMoving(held)
    links.domain.store(domain, ordering: .relaxed)
    hierarchy.domain.store(domain, ordering: .relaxed)
    if self[held].containerAttributes.isWritten {
      for cell in self[held].containerAttributes.value.attachedCells { cell.follow(held, to: domain) }
    }
  }
}

extension BroadcasterStorage<LifecycleEvent> {
  /// The state of a stream of controller `id`, with its lost and lagged
  /// markers.
  ///
  /// The closures are written where they are passed: built elsewhere and
  /// handed over, each would be wrapped in a thunk of its own (two more
  /// allocations per controller).
  convenience init(id: ControllerID, name: String) {
    self.init(
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
}
