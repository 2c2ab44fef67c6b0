/// A navigation controller's own bookkeeping besides its stack (the stack
/// *is* its children list).
///
/// Guarded by the link lock (``TreeGuarded``).
struct NavigationState {
  /// Weak: see ``NavigationControllerDelegate``.
  weak var delegate: (any NavigationControllerDelegate)?
  var isNavigationBarHidden = false
}
