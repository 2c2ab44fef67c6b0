import ContainmentLocking
/// The running gesture of an interactive dismissal, handed to its driver
/// (``ViewController/interactiveDismiss(_:)``).
///
/// Thread-safe; `update` may be called from any task. The fraction decides
/// how much of ``ViewController/presentationDuration`` is left to animate
/// when the driver decides.
public final class InteractiveDismissalProgress: Sendable {
  /// The controller being dismissed.
  public let presented: any ViewController
  private let fraction = Locked(0.0)

  init(presented: any ViewController) { self.presented = presented }

  /// How far the gesture has gone, from 0 (not at all) to 1 (all the way).
  public var percentComplete: Double { fraction.withLock { $0 } }

  /// Reports the gesture's progress; clamped to 0...1 (NaN counts as 0).
  public func update(_ percentComplete: Double) {
    fraction.withLock { $0 = percentComplete.isNaN ? 0 : min(1, max(0, percentComplete)) }
  }
}
