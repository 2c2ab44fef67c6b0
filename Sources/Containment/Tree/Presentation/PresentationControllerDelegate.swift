/// Told about interactive dismissals of a presented controller (P6), with the
/// names of UIKit's `UIAdaptivePresentationControllerDelegate`.
///
/// Set it with ``ViewController/presentationControllerDelegate`` on the
/// presented controller; it is held weakly.
///
/// The methods run inside the dismissal's transaction, as hooks: a request a
/// method makes to the presenter is queued behind it (R2).
public protocol PresentationControllerDelegate: AnyObject, Sendable {
  /// Asked when a gesture starts; `false` refuses the dismissal, and
  /// ``presentationControllerDidAttemptToDismiss(_:)`` follows. Default: `true`.
  func presentationControllerShouldDismiss(_ presented: any ViewController) async -> Bool
  /// The gesture started (after the presented controller's `viewWillDisappear`).
  func presentationControllerWillDismiss(_ presented: any ViewController) async
  /// The gesture finished and the controller was dismissed.
  func presentationControllerDidDismiss(_ presented: any ViewController) async
  /// A dismissal was refused, by ``ViewController/isModalInPresentation`` or
  /// by ``presentationControllerShouldDismiss(_:)``.
  func presentationControllerDidAttemptToDismiss(_ presented: any ViewController) async
}

extension PresentationControllerDelegate {
  /// Default: `true`.
  public func presentationControllerShouldDismiss(_ presented: any ViewController) async -> Bool { true }
  /// Default: does nothing.
  public func presentationControllerWillDismiss(_ presented: any ViewController) async {}
  /// Default: does nothing.
  public func presentationControllerDidDismiss(_ presented: any ViewController) async {}
  /// Default: does nothing.
  public func presentationControllerDidAttemptToDismiss(_ presented: any ViewController) async {}
}
