import ContainmentLocking
extension Window {
  /// Runs `root` in this window as a long-lived service (V5): shows it
  /// (``setRootViewController(_:animated:)``), suspends until the calling
  /// task is cancelled or `shutdown` is requested, then tears the tree down
  /// in order (``tearDown()``: off screen, stop hooks children before
  /// parents within the environment's ``TeardownPolicy``, streams end) and
  /// returns.
  ///
  /// The shape of swift-service-lifecycle's `Service.run()`; see
  /// ``TreeService`` for a value with exactly that method.
  ///
  /// Cancellation or a shutdown requested before the tree was shown (even
  /// before this call, or while it waited for the window) skips showing it;
  /// the window is torn down all the same, and so is `root`'s tree (V3, as it
  /// was never shown: no appearance hooks; ``ViewController/viewDidTearDown()``
  /// children before parents; its streams end), unless `root` belongs to
  /// another tree (it has a parent, a presenter or another window), which is
  /// left alone. The teardown itself is not cut short by the cancellation.
  ///
  /// Throws the errors of ``setRootViewController(_:animated:)`` (for
  /// example ``ContainmentError/hasParent(_:)``), after tearing the window
  /// down; then `root` is left as it was.
  public func run(_ root: any ViewController, until shutdown: GracefulShutdown = GracefulShutdown()) async throws {
    var shown = false
    if !Task.isCancelled, !shutdown.isRequested {
      do {
        try await setRootViewController(root)
        shown = true
      } catch is CancellationError {
        // Cancelled while waiting for the window: nothing was shown.
      } catch {
        await tearDownInOrder()
        throw error
      }
    }
    await shutdown.wait()
    await tearDownInOrder()
    if !shown { await Self.tearDownUnshown(root) }
  }

  /// Tears down a tree that `run` was handed but never showed, if it is a
  /// tree of its own.
  private static func tearDownUnshown(_ root: any ViewController) async {
    let own = TreeLock.withLock(root.node) { held in
      root.node[held].parent == nil && root.node[held].presenting == nil && root.node[held].window == nil
    }
    if own { await root.tearDown() }
  }
}
