import ContainmentLocking
import Synchronization

/// One controller's place in its tree: the links and per-controller state
/// its tree's link domain guards (parent, children, view, window,
/// presentation, appearance, lifecycle flags, event routing), the index of
/// that domain, and its slot in hierarchical exclusion.
///
/// Isolation: ``State`` is reached only inside a ``TreeLock`` section, with
/// its ``LinkSection`` (`links[held]`); debug builds check that the section
/// holds this object's domain. This is the one place a controller's runtime state changes:
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
    var ownEnvironment = OutOfLine<ContainmentEnvironment?>()
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
    /// Its own environment, or nil if it inherits one.
    var environment: ContainmentEnvironment? {
      get { ownEnvironment.value }
      set { ownEnvironment.value = newValue }
    }
    /// What stands above this controller in its tree: its parent, or the
    /// controller presenting it (§10).
    var treeParent: ControllerNode? { parent?.node ?? presenting?.node }
    /// The window whose root this controller is, or nil.
    var window: Window? {
      get { windowLink?.value }
      set { windowLink = newValue.map(BackLink.init) }
    }
  }
  // Private: reachable only through the subscript below, with a
  // `LinkSection`. Release builds skip Swift's dynamic exclusivity checks
  // here (`LinkSection` says why).
  #if DEBUG
    private var guarded = State()
  #else
    @exclusivity(unchecked) private var guarded = State()
  #endif

  /// The guarded state, inside a section; debug builds check that the
  /// section holds the lock of this object's domain.
  @inline(__always)
  subscript(_ held: LinkSection) -> State {
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
  var releasing: State {
    _read { yield guarded }
    _modify { yield &guarded }
  }

  init(domain: Int) {
    self.domain = Atomic(domain)
    self.hierarchy = HierarchySlot(domain: domain)
  }
}

extension ControllerLinks: LinkGuarded {
  var linkDomain: Int { domain.load(ordering: .relaxed) }
}
