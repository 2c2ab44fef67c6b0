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
public final class Window: @unchecked Sendable {
  /// The window's own view; the root controller's view is installed in it.
  public let rootView: View
  let queue: TransactionQueue
  /// Hierarchical exclusion state; guarded by the same link domain as
  /// ``Links`` (the slot keeps a copy of the domain's index).
  let hierarchy: HierarchySlot

  /// The link domain guarding ``Links`` (``TreeLock``).
  let domain: Atomic<Int>
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
  }
  // Private: reachable only through the subscript below, with a
  // `LinkSection`. Release builds skip Swift's dynamic exclusivity checks
  // here (`LinkSection` says why).
  #if DEBUG
    private var guarded: Links
  #else
    @exclusivity(unchecked) private var guarded: Links
  #endif

  /// The guarded state, inside a section; debug builds check that the
  /// section holds the lock of this object's domain.
  @inline(__always)
  subscript(_ held: LinkSection) -> Links {
    _read {
      TreeLock.assertHeld(self)
      yield guarded
    }
    _modify {
      TreeLock.assertHeld(self)
      yield &guarded
    }
  }

  /// The state, for the deinitializer only: nothing else can reach an
  /// object being released, so no lock is taken (and a `deinit` must not
  /// take one: the last reference may be dropped inside a section).
  var releasing: Links {
    _read { yield guarded }
    _modify { yield &guarded }
  }

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
    self.domain = Atomic(rootView.linkDomain)
    self.hierarchy = HierarchySlot(domain: rootView.linkDomain)
    self.queue = TransactionQueue(owner: hierarchy)
    self.guarded = Links(environment: environment, traits: traits)
    TreeLock.withLock(rootView) { held in rootView[held].hostWindow = self }
  }

  deinit {
    // A released window takes its tree off screen without hooks: every
    // controller at rest becomes `disappeared`, so a later window shows the
    // tree again with its appearance hooks (CONCURRENCY.md, "Views and windows").
    guard let root = releasing.rootViewController else { return }
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

  /// Shows `controller` as the window's root: loads its view if needed, sizes
  /// it to the window, installs it, and forwards appearance to it and to its
  /// installed descendants (A1).
  ///
  /// A previous root disappears first.
  ///
  /// Runs as one transaction on the window's queue (FIFO; cancellable while
  /// waiting). Throws ``ContainmentError/windowTornDown`` after the window's
  /// teardown, ``ContainmentError/tornDown(_:)`` if `controller`'s tree was
  /// torn down, ``ContainmentError/hasParent(_:)`` if `controller` is a
  /// child of some container, ``ContainmentError/alreadyPresented(_:)`` if it
  /// is presented (§10); then nothing changes.
  @discardableResult
  public func setRootViewController(_ controller: (any ViewController)?, animated: Bool = false) async throws
    -> TransactionHandle<Void>
  {
    try await Transaction.perform(on: .window(self), adopting: controller.map { [$0] } ?? []) { context in
      try await self.replaceRoot(with: controller, animated: animated, reason: .replaced, context: context)
    }
  }

  /// Inside a transaction on this window's queue: takes `controller` off the
  /// window if it is still its root (V2, a faulted root isolated).
  func removeRoot(_ controller: any ViewController, reason: RemovalReason, context: TransactionContext) async throws {
    guard TreeLock.withLock(self, { held in self[held].rootViewController === controller && !self[held].isTornDown })
    else { return }
    try await replaceRoot(with: nil, animated: false, reason: reason, context: context)
  }

  /// `reason` is what the `dismissed` events of presentations over the old
  /// root say (V4).
  private func replaceRoot(
    with controller: (any ViewController)?, animated: Bool, reason: RemovalReason, context: TransactionContext
  ) async throws {
    let old: (any ViewController)? = try TreeLock.withLock(self, controller?.node) { held in
      if self[held].isTornDown { throw ContainmentError.windowTornDown }
      if let controller {
        if controller.node[held].supervision.isTornDown { throw ContainmentError.tornDown(controller.node.id) }
        if controller.node[held].parent != nil { throw ContainmentError.hasParent(controller.node.id) }
        if controller.node[held].presenting != nil { throw ContainmentError.alreadyPresented(controller.node.id) }
        if controller.node[held].eventRouting.departure != nil || controller.node[held].reservation != nil {
          throw ContainmentError.childInFlight(controller.node.id)
        }
        if let window = controller.node[held].window, window !== self {
          throw ContainmentError.alreadyInWindow(controller.node.id)
        }
      }
      return self[held].rootViewController
    }
    if let old, old === controller { return }
    if let old {
      var pass = AppearancePass(animated: animated)
      let presentations = TreeLock.withLock(self) { (held: LinkSection) -> [any ViewController] in
        // Presentations over the tree leave with it, top layer first (§10).
        let layers = rootView[held].subviews.reversed().compactMap { $0[held].owner }.filter {
          $0.node[held].presenting != nil
        }
        for presented in layers {
          pass.beginForwarding(held, from: presented, isAppearing: false)
          presented.node[held].view?.unlink(held)
        }
        var all: [any ViewController] = []
        var frontier = layers
        while !frontier.isEmpty {
          // A presented layer off screen (covered by a `.fullScreen`
          // presentation from its own child) is in this window too.
          var covered: [any ViewController] = []
          for presented in frontier {
            var current: (any ViewController)? = presented
            while let controller = current, controller.node[held].presenting != nil,
              !all.contains(where: { $0 === controller })
            {
              all.append(controller)
              if let owner = controller.node[held].coveredLayer?.view[held].owner, owner.node[held].presenting != nil {
                covered.append(owner)
              }
              current = controller.node[held].presenting
            }
          }
          frontier = covered
        }
        return all
      }
      TreeLock.withLock(self) { held in
        if let view = old.node[held].view {
          pass.beginForwarding(held, in: view, isAppearing: false)
          view.unlink(held)
        }
        self[held].rootViewController = nil
      }
      await pass.deliverAll(in: context)
      let dismissed = TreeLock.withLock([self] + presentations.map(\.node)) {
        (held: LinkSection) -> [(presenter: ControllerNode, presented: ControllerID, style: PresentationStyle)] in
        presentations.compactMap { presented in
          presented.node.endPresentation(held).map { ($0.presenter, presented.node.id, $0.style) }
        }
      }
      for entry in dismissed {
        entry.presenter.emit(.dismissed(entry.presented, style: entry.style, reason: reason), transaction: context.id)
      }
      // Unlinked only now, so that its disappearance events keep the window's clock.
      TreeLock.withLock(self, old.node) { held in
        HierarchyExclusion.treeChanged(held, from: hierarchy, to: old.node.hierarchy)
        old.node[held].window = nil
        old.node.invalidatePositions(held)
      }
    }
    guard let controller else { return }
    await endPresentationsOfAReleasedWindow(over: controller, context: context)
    // Hosted before its view loads, so `viewDidLoad` already sees the
    // window's traits and clock (a split controller lays out by them).
    TreeLock.withLock(self, controller.node) { held in
      HierarchyExclusion.treeChanged(held, from: controller.node.position(held).treeSlot, to: hierarchy)
      TreeLock.join(held, controller.node, into: linkDomain)
      controller.node[held].window = self
      controller.node.invalidatePositions(held)
    }
    let view = await controller.loadViewIfNeeded(in: context)
    var pass = AppearancePass(animated: animated)
    TreeLock.withLock(self, view) { held in
      self[held].rootViewController = controller
      view[held].frame = Rect(x: 0, y: 0, width: rootView[held].frame.width, height: rootView[held].frame.height)
      rootView.link(held, view)
      pass.beginForwarding(held, in: view, isAppearing: true)
    }
    await pass.deliverAll(in: context)
  }

  /// Changes the traits and tells every controller of the hosted tree, parent
  /// first, children in order (D3).
  ///
  /// One transaction on the window's queue. Throws
  /// ``ContainmentError/windowTornDown`` after the window's teardown; then
  /// nothing changes.
  public func setTraitCollection(_ traits: TraitCollection) async throws {
    try await Transaction.perform(on: .window(self)) { context in
      let (previous, controllers) = try TreeLock.withLock(self) {
        (held: LinkSection) -> (TraitCollection, [any ViewController]) in
        if self[held].isTornDown { throw ContainmentError.windowTornDown }
        let previous = self[held].traits
        self[held].traits = traits
        guard let root = self[held].rootViewController else { return (previous, []) }
        return (previous, Window.preorder(held, from: root))
      }
      guard previous != traits else { return }
      for controller in controllers {
        await controller.deliver(.traitCollectionDidChange(previous: previous, current: traits), in: context)
      }
    }
  }

  /// Tears the window and its tree down in order (V3, E6): the root
  /// controller and the presentations over it go off screen (disappearance
  /// hooks in A1 order, `dismissed` events with reason `tornDown`); the tree
  /// is marked torn down; ``ViewController/viewDidTearDown()`` runs on every
  /// controller, children before parents, within the environment's
  /// ``TeardownPolicy``; then every controller's event streams end with
  /// `terminated`.
  ///
  /// Later requests on the window throw ``ContainmentError/windowTornDown``, on
  /// those controllers ``ContainmentError/tornDown(_:)``.
  ///
  /// One transaction on the window's queue: requests queued before it run
  /// first; those queued behind it fail. A teardown requested before anything
  /// was shown still marks the window. A second call does nothing.
  ///
  /// Cancelling the calling task does not stop a teardown (it is never lost):
  /// it still waits its turn and runs. From inside a hook of the window's
  /// transaction it is queued like any request (R2) and returns at once.
  /// It never throws; it is declared `throws` so that it composes with the
  /// window's other calls.
  public func tearDown() async throws {
    await tearDownInOrder()
  }

  /// ``tearDown()``, which cannot fail.
  func tearDownInOrder() async {
    // The calls into user code running in the tree now (and those that
    // start before the stop phase) are cancelled and abandoned as the
    // policy says, so that the transactions ahead of the teardown end (V3).
    if Gateway.isActive {
      runningCalls.beginTeardown(TreeLock.withLock(self) { held in self[held].environment.teardown })
    }
    if TransactionContext.current != nil {
      await runTeardown()
    } else {
      await Task.detached { await self.runTeardown() }.value
    }
  }

  private func runTeardown() async {
    // Only the body's own error can end it (the task is not cancelled
    // while it waits, or it is a nested request that reports through its handle).
    _ = try? await Transaction.perform(on: .window(self)) { context in
      let stopping = TreeLock.withLock(self) { (held: LinkSection) -> [any ViewController]? in
        if self[held].isTornDown { return nil }
        return self[held].rootViewController.map { Teardown.stopOrder(held, from: $0) } ?? []
      }
      guard let stopping else { return }
      try await self.replaceRoot(with: nil, animated: false, reason: .tornDown, context: context)
      let environment = TreeLock.withLock([self] + stopping.map(\.node)) {
        (held: LinkSection) -> ContainmentEnvironment in
        self[held].isTornDown = true
        for controller in stopping { controller.node[held].supervision.isTornDown = true }
        return self[held].environment
      }
      // The stop hooks have their own escalation.
      self.runningCalls.stopEscalating()
      await Teardown.stop(stopping, policy: environment.teardown, environment: environment, context: context)
    }
  }

  /// Under the link lock: `controller` and its descendants, each before its
  /// children, children in order.
  ///
  /// Iterative: any depth, linear time.
  static func preorder(_ held: LinkSection, from controller: any ViewController) -> [any ViewController] {
    var result: [any ViewController] = []
    var stack: [any ViewController] = [controller]
    while let next = stack.popLast() {
      result.append(next)
      stack.append(contentsOf: next.node[held].children.reversed())
    }
    return result
  }
}

extension Window: LinkedObject {
  /// The link domain guarding this object (``LinkGuarded``).
  ///
  /// Locking-layer SPI, not API: the locking module needs it public to inline
  /// its sections.
  @_spi(Locking) public var linkDomain: Int { domain.load(ordering: .relaxed) }

  /// The objects this one links to (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func appendLinkedObjects(_ held: LinkSection, to objects: inout [any LinkedObject]) {
    objects.append(rootView)
    if let root = self[held].rootViewController { objects.append(root.node) }
  }

  /// Records a move to another link domain (``LinkedObject``); locking-layer SPI.
  @_spi(Locking) public func move(_ held: LinkSection, from old: Int, to domain: Int) {
    self.domain.store(domain, ordering: .relaxed)
    hierarchy.domain.store(domain, ordering: .relaxed)
  }
}
