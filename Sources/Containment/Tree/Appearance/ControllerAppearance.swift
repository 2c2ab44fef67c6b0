/// A controller's appearance, owned by the appearance feature: its state
/// machine (§3) and whether the hooks it is running now were caused by being
/// added to or removed from a parent (A5).
///
/// Isolation: a field of the controller's ``ControllerLinks``, so it is read
/// and changed only inside a ``TreeLock`` section (`node[held].appearance.machine`),
/// together with the links an appearance decision depends on. Kept inline,
/// not in a cell of its own: a second object per controller would cost its
/// header and a lock domain's bookkeeping for 21 bytes of state.
struct ControllerAppearance {
  /// The appearance state machine (A1–A4).
  var machine = AppearanceMachine()
  /// True during the appearance hooks caused by being added to a parent (A5).
  var isMovingToParent = false
  /// True during the appearance hooks caused by being removed from a parent (A5).
  var isMovingFromParent = false
}
