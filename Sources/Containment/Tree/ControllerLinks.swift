import ContainmentLocking
import Synchronization

/// One controller's place in its tree: its links (parent, children, view,
/// window, presentation) and, as values each feature defines in its own
/// folder, the state that feature keeps per controller: ``ControllerAppearance``
/// (Appearance), ``ControllerSupervision`` (Supervision), ``EventRouting``
/// (Events), `PresentationLinks` (Presentation), `ContainerAttributes`
/// (Containers).
///
/// They share one cell because the tree's link lock guards them all and the
/// runtime's decisions read them together with the links in one section; one
/// allocation per controller, not one per feature, keeps an idle controller
/// small.
///
/// Isolation: kept in the node's ``LinkCell`` (`node.links`), reached only
/// inside a ``TreeLock`` section with its ``LinkSection`` (`node[held]`).
/// This is the one place a controller's runtime state changes:
/// ``ControllerNode`` holds only constants.
struct ControllerLinks {
  /// The parent (a back-link: it never keeps the parent alive).
  var parentLink: ControllerBackLink?
  var children: [any ViewController] = []
  var view: View?
  var viewLoad: ControllerNode.ViewLoadState = .notLoaded
  /// The appearance feature's state (``ControllerAppearance``).
  var appearance = ControllerAppearance()
  /// The supervision feature's state (``ControllerSupervision``).
  var supervision = ControllerSupervision()
  /// ``reservation``, 0 for none: it stays 8 bytes, and the two small fields
  /// above fill the appearance machine's padding, so that the links take 160
  /// bytes and their cell one malloc size class less (part of an idle
  /// controller's memory target).
  private var reservationToken: UInt64 = 0
  /// Its own environment, if one was set (most controllers inherit one).
  var ownEnvironment = OutOfLine<ContainmentEnvironment?>()
  /// The navigation item and preferred content size (`ContainerAttributes`).
  var containerAttributes = OutOfLine<ContainerAttributes>()
  /// Set while the controller is a window's root.
  var windowLink: BackLink<Window>?
  /// The events feature's routing (``EventRouting``).
  var eventRouting = EventRouting()
  /// Presentation links, style and flags (`PresentationLinks`, §10).
  var presentation = OutOfLine<PresentationLinks>()
  /// This controller's place in its tree, derived from its parent's; nil
  /// until needed and whenever something it depends on changed.
  var cachedPosition: TreePosition?
  /// Tests waiting for readers to block on a view load in progress.
  var viewReaderObservers = CountObservers()
  /// Tasks waiting for this controller's tree to be idle (counted in its
  /// domain too, see `IdleWaiters`).
  var idleWaiters: Int32 = 0
  /// Requests deferred onto this controller's queue, not dispatched yet.
  ///
  /// Until they are, its tree is not idle (``Governor/countDeferred(_:_:)``).
  /// `Int32`, like ``idleWaiters``, so that the pair takes 8 bytes.
  var deferredRequests: Int32 = 0

  /// Set while a move between containers has removed this controller from
  /// its old parent and not yet added it to the new one (its token, never 0).
  var reservation: UInt64? {
    get { reservationToken == 0 ? nil : reservationToken }
    set { reservationToken = newValue ?? 0 }
  }

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
