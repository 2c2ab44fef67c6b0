import ContainmentLocking
/// The running gesture of an interactive pop, handed to its driver
/// (``NavigationController/interactivePop(_:)``): which controllers are
/// involved and how far the gesture has gone.
///
/// Thread-safe; `update` may be called from any task. The fraction is only
/// bookkeeping for the headless runtime: it decides how much of the
/// navigation controller's `transitionDuration` is left to animate when the
/// driver decides (the rest of it to finish, the part already done to cancel).
public final class InteractivePopProgress: Sendable {
  /// The controller being popped (the top of the stack).
  public let popping: any ViewController
  /// The controller being revealed (the one below it).
  public let revealing: any ViewController
  private let fraction = Locked(0.0)

  init(popping: any ViewController, revealing: any ViewController) {
    self.popping = popping
    self.revealing = revealing
  }

  /// How far the gesture has gone, from 0 (not at all) to 1 (all the way).
  public var percentComplete: Double { fraction.withLock { $0 } }

  /// Reports the gesture's progress; clamped to 0...1 (NaN counts as 0).
  public func update(_ percentComplete: Double) {
    let clamped = percentComplete.isNaN ? 0 : min(1, max(0, percentComplete))
    fraction.withLock { $0 = clamped }
  }
}
