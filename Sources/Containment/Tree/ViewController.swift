/// A controller in a containment tree: a user's `actor` that conforms to this
/// protocol.
///
/// Actors cannot inherit, so the runtime's bookkeeping (parent, children,
/// view, appearance state, subscribers) lives in a ``ControllerNode`` that the
/// actor stores, and every public verb (``addChild(_:)``,
/// ``removeFromParent()``, ``beginAppearanceTransition(_:animated:)``, ...) is a
/// protocol-extension method, not a requirement: a conforming type cannot
/// replace the bookkeeping by accident, and nothing depends on calling `super`.
///
/// ```swift
/// actor Profile: ViewController {
///   nonisolated let node = ControllerNode(name: "Profile")
///   func viewDidLoad() async { /* build subviews */ }
///   func viewWillAppear(_ animated: Bool) async { /* refresh */ }
/// }
/// ```
///
/// Hooks run on the controller's own actor; the runtime calls them from the
/// transaction that caused them, one at a time, in the order of the contract. Every
/// hook has a default, empty implementation.
///
/// Hooks may call the runtime's verbs. A verb called from inside a hook on the
/// container that is running the hook's transaction (or on one of its
/// ancestors) is queued behind that transaction and returns at once with a
/// pending ``TransactionHandle`` (R2); see CONCURRENCY.md.
public protocol ViewController: Actor {
  /// The runtime's state for this controller. Store one, created once:
  /// `nonisolated let node = ControllerNode(name: "Profile")`. Never return a new node
  /// from a computed property.
  nonisolated var node: ControllerNode { get }

  /// Whether appearance changes of this controller are forwarded
  /// automatically to its children (A1, A6). Return `false` to forward
  /// them yourself with `beginAppearanceTransition`/`endAppearanceTransition`.
  /// Default: `true`.
  nonisolated var shouldAutomaticallyForwardAppearanceMethods: Bool { get }

  /// Whether this controller, while presented as a sheet, refuses to be
  /// dismissed interactively (P6). Default: `false`.
  nonisolated var isModalInPresentation: Bool { get }

  /// Creates the controller's root view. Called once, on first access to
  /// ``view``; do not access `view` from here. Default: an empty ``View``.
  func loadView() async -> View
  /// Called exactly once, right after ``loadView()``.
  func viewDidLoad() async
  /// The view is about to appear.
  func viewWillAppear(_ animated: Bool) async
  /// The view is in the hierarchy and about to be shown (after
  /// `viewWillAppear`, before `viewDidAppear`; once per appearance).
  func viewIsAppearing(_ animated: Bool) async
  /// The view appeared.
  func viewDidAppear(_ animated: Bool) async
  /// The view is about to disappear.
  func viewWillDisappear(_ animated: Bool) async
  /// The view disappeared.
  func viewDidDisappear(_ animated: Bool) async
  /// The hook behind ``willMove(toParent:)``: the controller is about to be
  /// added to `parent`, or removed from its parent when `parent` is nil.
  ///
  /// UIKit's override point `willMove(toParent:)` is the verb here: a
  /// controller that declares it is never called (the `ContainmentHookNames`
  /// build plugin reports it as an error). Implement this hook instead.
  func viewWillMove(toParent parent: (any ViewController)?) async
  /// The hook behind ``didMove(toParent:)``: the controller was added to
  /// `parent`, or removed from its parent when `parent` is nil.
  ///
  /// UIKit's `didMove(toParent:)` is the verb here; implement this hook
  /// instead (see ``viewWillMove(toParent:)``).
  func viewDidMove(toParent parent: (any ViewController)?) async
  /// The trait environment changed (D3); called parent first.
  func traitCollectionDidChange(_ previous: TraitCollection?) async
  /// The tree is being torn down and this controller is stopping (V3):
  /// called once, after the tree went off screen, children before parents
  /// (a presented controller before its presenter), before the event streams
  /// end. Release resources here. It may be cancelled and then abandoned
  /// past the tree's ``TeardownPolicy``: check `Task.isCancelled` in long work.
  func viewDidTearDown() async
  /// A child's ``ViewController/preferredContentSize`` changed (D2).
  func preferredContentSizeDidChange(forChild child: any ViewController) async
  /// The child whose status bar style wins, or nil for self (D1).
  func childForStatusBarStyle() async -> (any ViewController)?
  /// The child whose status bar visibility wins, or nil for self (D1).
  func childForStatusBarHidden() async -> (any ViewController)?
  /// This controller's own status bar style.
  func preferredStatusBarStyle() async -> StatusBarStyle
  /// This controller's own status bar visibility.
  func prefersStatusBarHidden() async -> Bool
}

/// A status bar appearance, resolved through ``ViewController/childForStatusBarStyle()``.
public enum StatusBarStyle: Sendable, Hashable, Codable {
  case `default`, lightContent, darkContent
}

/// Defaults for every hook: forward appearance automatically, load a plain
/// `View`, and do nothing in each callback. Implement only what you need; the
/// runtime's bookkeeping never depends on these being called (no `super`).
extension ViewController {
  /// Default: `true`.
  public nonisolated var shouldAutomaticallyForwardAppearanceMethods: Bool { true }
  /// Default: `false`.
  public nonisolated var isModalInPresentation: Bool { false }
  /// A plain view named after the controller.
  public func loadView() async -> View { View() }
  /// Default: does nothing.
  public func viewDidLoad() async {}
  /// Default: does nothing.
  public func viewWillAppear(_ animated: Bool) async {}
  /// Default: does nothing.
  public func viewIsAppearing(_ animated: Bool) async {}
  /// Default: does nothing.
  public func viewDidAppear(_ animated: Bool) async {}
  /// Default: does nothing.
  public func viewWillDisappear(_ animated: Bool) async {}
  /// Default: does nothing.
  public func viewDidDisappear(_ animated: Bool) async {}
  /// Default: does nothing.
  public func viewWillMove(toParent parent: (any ViewController)?) async {}
  /// Default: does nothing.
  public func viewDidMove(toParent parent: (any ViewController)?) async {}
  /// Default: does nothing.
  public func traitCollectionDidChange(_ previous: TraitCollection?) async {}
  /// Default: does nothing.
  public func viewDidTearDown() async {}
  /// Default: does nothing.
  public func preferredContentSizeDidChange(forChild child: any ViewController) async {}
  /// Default: nil (this controller decides).
  public func childForStatusBarStyle() async -> (any ViewController)? { nil }
  /// Default: nil (this controller decides).
  public func childForStatusBarHidden() async -> (any ViewController)? { nil }
  /// Default: `.default`.
  public func preferredStatusBarStyle() async -> StatusBarStyle { .default }
  /// Default: `false`.
  public func prefersStatusBarHidden() async -> Bool { false }
}
