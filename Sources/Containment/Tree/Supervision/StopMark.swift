import ContainmentLocking
import Synchronization

/// Whether a controller's stop has begun (V3), readable without its tree's
/// lock: on the controller's actor, where a hook called from outside any
/// transaction (a hand-forwarded `willMove`, `beginAppearanceTransition`…)
/// decides whether it may still run.
///
/// Set once, in the teardown's section that marks the tree torn down, before
/// the stop hooks start; never cleared. A hook that checks it on the
/// controller's actor either starts before ``ViewController/viewDidTearDown()``
/// starts there (the actor runs one at a time) or sees the mark and is
/// skipped: no hook reaches a controller after its stop hook.
///
/// One byte in the node; one atomic load per hook delivered outside a
/// transaction.
struct StopMark: ~Copyable, Sendable {
  private let stopped = Atomic<Bool>(false)

  init() {}

  /// The stop has begun.
  var isSet: Bool { stopped.load(ordering: .acquiring) }

  /// Marks the stop as begun.
  func set() { stopped.store(true, ordering: .releasing) }
}

extension ControllerNode {
  /// Marks the controller torn down (V3).
  ///
  /// Later requests that name it are refused, and a hook called on it from
  /// outside any transaction no longer runs. Inside the teardown's section,
  /// before its stop hooks.
  func markTornDown(_ held: LinkSection) {
    self[held].supervision.isTornDown = true
    stopMark.set()
  }
}
