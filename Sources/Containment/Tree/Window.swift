import ContainmentLocking
import Synchronization

/// A headless window: the root of a tree that is on screen.
///
/// It hosts one root controller, carries the trait environment (§1, D3) and the
/// tree's ``ContainmentEnvironment`` (its clock).
///
/// Keep a reference to a window while it shows a tree: views refer to their
/// window without keeping it alive (so that dropping both releases
/// everything), and a window
/// that is released takes its tree off screen without appearance hooks. To
/// take a tree off screen in order, call ``setRootViewController(_:animated:)``
/// with nil or ``tearDown()``.
///
/// Isolation: like ``View``, a window's state is guarded by its tree's link lock;
/// changes that cause hooks (`setRootViewController`, `setTraitCollection`,
/// `tearDown`) run as transactions on the window's own FIFO queue.
public final class Window: Sendable, LinkCellOwner {
  /// The window's own view; the root controller's view is installed in it.
  public let rootView: View
  let queue: TransactionQueue
  /// Hierarchical exclusion state; guarded by the same link domain as
  /// ``Links`` (the slot keeps a copy of the domain's index).
  let hierarchy: HierarchySlot

  /// The supervised calls into user code running in this window's tree,
  /// which its teardown escalates (``Gateway``).
  let runningCalls = RunningCalls()

  // MARK: Guarded by TreeLock

  /// The state a link domain guards; reached only inside a ``TreeLock``
  /// section (`window[held]`).
  struct Links {
    var environment: ContainmentEnvironment
    var traits: TraitCollection
    var rootViewController: (any ViewController)?
    var isTornDown = false
    /// Requests deferred onto this window's queue that are not dispatched
    /// yet (``Governor/countDeferred(_:_:)``).
    var deferredRequests: Int32 = 0
  }

  /// The guarded state's cell; its domain is the window's (``linkDomain``).
  let links: LinkCell<Links>

  /// Creates a window of the given size and traits, whose tree takes its
  /// clock from `environment`.
  public init(
    frame: Rect = Rect(x: 0, y: 0, width: 1024, height: 768),
    traits: TraitCollection = TraitCollection(),
    environment: ContainmentEnvironment = .default
  ) {
    let rootView = View(frame: frame, label: "window")
    self.rootView = rootView
    // The window and its own view are linked for life: one domain.
    self.links = LinkCell(Links(environment: environment, traits: traits), domain: rootView.linkDomain)
    self.hierarchy = HierarchySlot(domain: rootView.linkDomain)
    self.queue = TransactionQueue(owner: hierarchy)
    TreeLock.withLock(rootView) { held in rootView[held].hostWindow = self }
  }

  deinit {
    // A released window takes its tree off screen without hooks: every
    // controller at rest becomes `disappeared`, so a later window shows the
    // tree again with its appearance hooks (CONCURRENCY.md, "Views and windows").
    guard let root = links.releasing.rootViewController else { return }
    TreeLock.afterRelease(in: linkDomain) { [weak root] held in
      guard let root else { return }
      Window.takeOffScreenWithoutHooks(held, root)
    }
  }

  /// The controller shown in the window, if any.
  public var rootViewController: (any ViewController)? {
    TreeLock.withLock(self) { held in self[held].rootViewController }
  }

  /// The current traits.
  public var traitCollection: TraitCollection { TreeLock.withLock(self) { held in self[held].traits } }

  /// The environment (clock) of the hosted tree.
  public var environment: ContainmentEnvironment { TreeLock.withLock(self) { held in self[held].environment } }
}

extension Window: LinkedObject {
  /// The link domain guarding this object (``LinkGuarded``).
  ///
  /// Locking-layer SPI, not API: the locking module needs it public to inline
  /// its sections.
  @_spi(Locking) public var linkDomain: Int { links.linkDomain }

  /// The objects this one links to (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func appendLinkedObjects(_ held: LinkSection, to objects: inout [any LinkedObject]) {
    objects.append(rootView)
    if let root = self[held].rootViewController { objects.append(root.node) }
  }

  /// Records a move to another link domain (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func move(_ held: LinkSection, from old: Int, to domain: Int) {
    hierarchy.countBeforeMoving(held)
    links.domain.store(domain, ordering: .relaxed)
    hierarchy.domain.store(domain, ordering: .relaxed)
  }
}
