import Synchronization

/// One controller's place in its tree: the links and per-controller state
/// its tree's link domain guards (parent, children, view, window,
/// presentation, appearance, lifecycle flags, event routing), the index of
/// that domain, and its slot in hierarchical exclusion.
///
/// Isolation: ``State`` is reached only through ``_state``, with the lock of
/// the domain named by ``linkDomain`` held (``TreeLock``); debug builds check
/// every access. This is the one place a controller's runtime state changes:
/// ``ControllerNode`` holds only constants.
final class ControllerLinks: @unchecked Sendable {
  /// The link domain guarding ``State`` (``TreeLock``).
  let domain: Atomic<Int>
  /// Hierarchical exclusion state; guarded by the same link domain (the slot
  /// keeps a copy of the domain's index).
  let hierarchy: HierarchySlot

  /// The links and per-controller state.
  struct State {
    /// The parent (a back-link: it never keeps the parent alive).
    var parentLink: ControllerBackLink?
    var children: [any ViewController] = []
    var view: View?
    var viewLoad: ControllerNode.ViewLoadState = .notLoaded
    var appearance = AppearanceMachine()
    var isMovingToParent = false
    var isMovingFromParent = false
    /// Set while a move between containers has removed this controller from
    /// its old parent and not yet added it to the new one.
    var reservation: UInt64?
    var isTornDown = false
    /// A hook of this controller ran past its deadline (V1): no hook is called
    /// on it any more.
    var isFaulted = false
    /// Its own environment, if one was set (most controllers inherit one).
    var environment = OutOfLine<ContainmentEnvironment?>()
    var treeEvents: Broadcaster<LifecycleEvent>?
    /// The navigation item and preferred content size (`ContainerAttributes`).
    var containerAttributes = OutOfLine<ContainerAttributes>()
    /// Set while the controller is a window's root.
    var windowLink: BackLink<Window>?
    /// Set while a removal's hooks run after the controller was unlinked: where
    /// its events still go (its former ancestors' tree streams, E2).
    var departure: ControllerNode.Departure?
    /// Presentation links, style and flags (`PresentationLinks`, §10).
    var presentation = OutOfLine<PresentationLinks>()
    /// This controller's place in its tree, derived from its parent's; nil
    /// until needed and whenever something it depends on changed.
    var cachedPosition: TreePosition?
    /// Tests waiting for readers to block on a view load in progress.
    var viewReaderObservers = CountObservers()
    /// Tasks waiting for this controller's tree to be idle (counted in its
    /// domain too, see `IdleWaiters`).
    var idleWaiters = 0

    /// The parent, or nil (also once the parent's release has begun).
    var parent: (any ViewController)? {
      get { parentLink?.value }
      set { parentLink = newValue.map(ControllerBackLink.init) }
    }
    /// The window whose root this controller is, or nil.
    var window: Window? {
      get { windowLink?.value }
      set { windowLink = newValue.map(BackLink.init) }
    }
  }
  // Every access is under the lock of this object's domain, which debug
  // builds check on each one (`_state`); they also keep Swift's dynamic
  // exclusivity checks. Release builds drop those checks here (they cost a
  // push+pop a tenth of its time): the lock rules out overlapping accesses
  // from two threads, and the checked builds (every test, the debug stress
  // harness) catch overlapping accesses from one.
  #if DEBUG
    private var state = State()
  #else
    @exclusivity(unchecked) private var state = State()
  #endif

  init(domain: Int) {
    self.domain = Atomic(domain)
    self.hierarchy = HierarchySlot(domain: domain)
  }

  /// The guarded state; only with the lock of this object's domain held.
  var _state: State {
    _read {
      TreeLock.assertHeld(self)
      yield state
    }
    _modify {
      TreeLock.assertHeld(self)
      yield &state
    }
  }

  /// The state, for the owning node's deinitializer only: nothing else can
  /// reach a controller being released, so no lock is taken.
  var stateInDeinit: State {
    _read { yield state }
    _modify { yield &state }
  }
}

extension ControllerLinks: LinkGuarded {
  var linkDomain: Int { domain.load(ordering: .relaxed) }
}
