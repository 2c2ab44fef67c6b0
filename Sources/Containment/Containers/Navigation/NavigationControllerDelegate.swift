/// Hears a ``NavigationController``'s transitions (N8).
///
/// Held **weakly** by the navigation controller, like UIKit: a delegate is
/// typically a coordinator that also owns the navigation controller (often
/// its parent), and a strong reference would make a retain cycle, which the
/// runtime never creates (§2). Keep your delegate alive yourself.
///
/// Methods run inside the navigation controller's transaction, on the
/// delegate's own isolation (conform with an `actor`), and count as hooks of
/// that transaction: a request the delegate makes to the navigation
/// controller is queued behind it (R2, N6). Every method has an empty
/// default.
public protocol NavigationControllerDelegate: AnyObject, Sendable {
  /// Before the will-hooks of a transition that changes the top of the stack
  /// (after `viewDidLoad` of the incoming controller).
  func navigationController(
    _ navigationController: NavigationController, willShow viewController: any ViewController, animated: Bool) async
  /// After the did-hooks and the `didMove` calls of that transition. For a
  /// cancelled interactive pop it names the controller that stayed on top.
  func navigationController(
    _ navigationController: NavigationController, didShow viewController: any ViewController, animated: Bool) async
}

extension NavigationControllerDelegate {
  /// Default: does nothing.
  public func navigationController(
    _ navigationController: NavigationController, willShow viewController: any ViewController, animated: Bool
  ) async {}
  /// Default: does nothing.
  public func navigationController(
    _ navigationController: NavigationController, didShow viewController: any ViewController, animated: Bool
  ) async {}
}
