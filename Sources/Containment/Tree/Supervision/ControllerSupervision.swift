/// A controller's supervision state, owned by the supervision feature:
/// whether its tree was torn down (V3, §8) and whether one of its hooks ran
/// past its deadline (V1).
///
/// Isolation: a field of the controller's ``ControllerLinks``, read and
/// changed only inside a ``TreeLock`` section (`node[held].supervision`), in
/// the same section as the links a teardown or an isolation walks.
struct ControllerSupervision {
  /// The controller's tree was torn down: later requests that name it are
  /// refused (§8), and its streams end.
  var isTornDown = false
  /// A hook of this controller ran past its deadline (V1): no hook is called
  /// on it any more.
  var isFaulted = false
}
