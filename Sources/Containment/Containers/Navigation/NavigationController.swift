import ContainmentLocking
import Synchronization

/// A container that shows a stack of controllers, one at a time (N1–N8):
/// UIKit's `UINavigationController`, as an actor.
///
/// ```swift
/// let nav = NavigationController()
/// try await window.setRootViewController(nav)
/// try await nav.setViewControllers([inbox], animated: false)   // N1
/// try await nav.push(message, animated: true)                  // N2
/// let popped = try await nav.pop(animated: true).value          // N3: message
/// ```
///
/// **The stack is the children list** (UIKit: `viewControllers == children`),
/// root first. Only the top's root view is installed in the navigation
/// controller's view, below the bar (``NavigationBarState/height``); the
/// others stay children with detached views, and get no appearance hooks
/// until they come back on top. A pushed controller's view is loaded only if
/// the navigation controller's own view is loaded; the top's view is loaded
/// and installed when it is.
///
/// **Transactions.** Every stack change (``push(_:animated:)``,
/// ``pop(animated:)``, ``popTo(_:animated:)``, ``popToRoot(animated:)``,
/// ``setViewControllers(_:animated:)``, ``interactivePop(_:)``) is one
/// transaction on this controller's FIFO queue (R1): a request made while
/// another runs waits its turn, in request order, and never interleaves
/// (N6). From outside a transaction the verb waits for its turn
/// (cancellable while waiting: it then throws `CancellationError` and changes
/// nothing, R3) and returns a completed handle; from inside a hook it is
/// queued and returns a pending handle at once (R2).
///
/// **Order of one stack change** (policy; N2–N5 are instances):
/// 1. the stack changes at once, at decision time: removed controllers leave
///    the children list (their `parent` stays this controller until step 6,
///    and `isMovingFromParent` is true), added ones join it;
/// 2. `willMove(toParent: nil)` to each removed controller (stack order),
///    then `willMove(toParent: self)` to each added one (new stack order);
/// 3. if the top changes and this view is loaded: the new top's view loads
///    (`viewDidLoad`, first time) and is installed (above the old top's for a
///    push, below it for a pop);
/// 4. the delegate's `willShow(newTop)`;
/// 5. if on screen: old top `viewWillDisappear`, new top `viewWillAppear`,
///    new top `viewIsAppearing` (each with its automatically forwarded
///    descendants);
/// 6. if animated and on screen: ``transitionDuration`` on the tree's clock;
///    then the old top's view is removed and removed controllers' `parent`
///    becomes nil;
/// 7. old top `viewDidDisappear`, new top `viewDidAppear`;
/// 8. `didMove(toParent: nil)` to each removed controller, then
///    `didMove(toParent: self)` to each added one;
/// 9. the delegate's `didShow(newTop)`.
/// Only the old and the new top get appearance hooks; entries in between get
/// none (N4, N5).
///
/// **Cancellation** of the task driving a change, once it has started: the
/// change finishes (policy: finish, never half-undo); the animation wait is
/// cut short and the outcome is ``TransitionOutcome/interrupted``.
public actor NavigationController: ViewController {
  /// The runtime's state for this controller.
  public nonisolated let node: ControllerNode
  /// How long an animated push or pop waits on the tree's clock.
  public nonisolated let transitionDuration: Duration
  nonisolated let state: TreeGuarded<NavigationState>
  /// Set when a delegate is first set: until then a push or a pop finds no
  /// delegate to ask without taking the link lock.
  private nonisolated let hasHadDelegate = Atomic<Bool>(false)

  /// Creates an empty navigation controller; give it a stack with
  /// ``setViewControllers(_:animated:)`` or ``push(_:animated:)``.
  public init(name: String = "Navigation", transitionDuration: Duration = .milliseconds(350)) {
    self.node = ControllerNode(name: name)
    self.state = TreeGuarded.attached(NavigationState(), to: node)
    self.transitionDuration = transitionDuration
  }

  // MARK: Reading (synchronous snapshots)

  /// The stack, root first: the children.
  public nonisolated var viewControllers: [any ViewController] { node.children }

  /// The top of the stack.
  public nonisolated var topViewController: (any ViewController)? { node.children.last }

  /// What the bar shows, derived from the stack right now.
  public nonisolated var navigationBar: NavigationBarState {
    TreeLock.withLock(node) { held in
      NavigationBarState(
        isHidden: state[held].isNavigationBarHidden,
        items: node[held].children.map { $0.node[held].containerAttributes.value.navigationItem })
    }
  }

  /// The delegate, held weakly (see ``NavigationControllerDelegate``).
  ///
  /// Setting it is synchronous; a transition already running keeps asking the
  /// delegate it read when it started each step.
  public nonisolated var delegate: (any NavigationControllerDelegate)? {
    get { TreeLock.withLock(node) { held in state[held].delegate } }
    set {
      if newValue != nil { hasHadDelegate.store(true, ordering: .sequentiallyConsistent) }
      TreeLock.withLock(node) { held in state[held].delegate = newValue }
    }
  }

  /// Shows or hides the bar.
  ///
  /// Synchronous: the top's view is re-pinned to the new content area at once
  /// (no appearance hooks; hiding is not removal).
  public nonisolated func setNavigationBarHidden(_ hidden: Bool) {
    TreeLock.withLock(node) { held in
      state[held].isNavigationBarHidden = hidden
      if let top = node[held].children.last { pin(held, top, contentPlacement(held)) }
    }
  }

  // MARK: Hooks

  /// A plain view named after the controller.
  public func loadView() async -> View { View(label: node.name) }

  /// Installs the top's view (loading it) when this view loads.
  ///
  /// Runs as a transaction on this queue, started without waiting for it (at
  /// once if the queue is free, else queued), so a load triggered from anywhere
  /// can never wait on this controller's own transactions.
  public func viewDidLoad() async {
    await Transaction.enqueue(on: .controller(self)) { context in
      await self.installTop(context: context)
    }
  }

  /// Brings the children's frames up to date with this view's size (the
  /// window or the parent may have resized it since the children were
  /// installed).
  public func viewWillAppear(_ animated: Bool) async {
    node.viewIfLoaded?.layoutIfNeeded()
  }

  /// The top of the stack decides (D1).
  public func childForStatusBarStyle() async -> (any ViewController)? { topViewController }
  /// The top of the stack decides (D1).
  public func childForStatusBarHidden() async -> (any ViewController)? { topViewController }

  /// Adopts the top's preferred content size as this controller's own, which
  /// tells this controller's parent in turn (D2).
  ///
  /// Other entries' sizes are ignored.
  public func preferredContentSizeDidChange(forChild child: any ViewController) async {
    guard child === topViewController else { return }
    await setPreferredContentSize(child.node.preferredContentSize)
  }

  // MARK: Lock-held helpers

  /// Under the link lock: where a child's root view goes (below the bar).
  nonisolated func contentPlacement(_ held: LinkSection) -> ChildPlacement {
    ChildPlacement(insets: EdgeInsets(top: state[held].isNavigationBarHidden ? 0 : NavigationBarState.height))
  }

  /// The delegate now, for a step about to ask it.
  nonisolated func currentDelegate() -> (any NavigationControllerDelegate)? {
    guard hasHadDelegate.load(ordering: .sequentiallyConsistent) else { return nil }
    return TreeLock.withLock(node) { held in state[held].delegate }
  }
}
