/// How long a teardown waits for its stop hooks (``ViewController/viewDidTearDown()``,
/// V3), measured on the tree's injected clock — the escalation of
/// swift-service-lifecycle: wait, then cancel, then abandon.
///
/// 1. The stop hooks run, children before parents, for up to `graceful`.
/// 2. Past it, the task running them is cancelled (the running hook sees
///    `Task.isCancelled`; the hooks still to come run in the cancelled task),
///    and the teardown waits up to `abandonAfter` more.
/// 3. Past that, the teardown stops waiting: the hook still running is
///    abandoned, the hooks not yet called are not called, and the streams end.
///
/// Swift cannot stop a running hook: abandoning only stops waiting for it.
/// Its actor may stay busy until the hook returns (CONCURRENCY.md,
/// "Teardown"). A nil duration waits forever at that step.
///
/// Set it on a tree's ``ContainmentEnvironment``. Default: ``waitForever``.
public struct TeardownPolicy: Sendable, Hashable {
  /// How long the stop hooks may run before they are cancelled; nil: forever.
  public var graceful: Duration?
  /// How long, after the cancellation, before they are abandoned; nil: forever.
  public var abandonAfter: Duration?

  /// A policy with the given deadlines (nil waits forever at that step).
  public init(graceful: Duration? = nil, abandonAfter: Duration? = nil) {
    self.graceful = graceful
    self.abandonAfter = abandonAfter
  }

  /// Waits for every stop hook however long it takes (UIKit's behaviour).
  public static let waitForever = TeardownPolicy()
}
