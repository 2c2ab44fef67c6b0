extension Window {
  /// Runs `root` in this window as a long-lived service (V5): shows it
  /// (``setRootViewController(_:animated:)``), suspends until the calling
  /// task is cancelled or `shutdown` is requested, then tears the tree down
  /// in order (``tearDown()``: off screen, stop hooks children before
  /// parents within the environment's ``TeardownPolicy``, streams end) and
  /// returns. The shape of swift-service-lifecycle's `Service.run()`; see
  /// ``TreeService`` for a value with exactly that method.
  ///
  /// Cancellation or a shutdown requested before the tree was shown (even
  /// before this call) skips showing it; the window is torn down all the
  /// same. The teardown itself is not cut short by the cancellation.
  ///
  /// Throws the errors of ``setRootViewController(_:animated:)`` (for
  /// example ``ContainmentError/hasParent(_:)``), after tearing the window
  /// down.
  public func run(_ root: any ViewController, until shutdown: GracefulShutdown = GracefulShutdown()) async throws {
    if !Task.isCancelled, !shutdown.isRequested {
      do {
        try await setRootViewController(root)
      } catch is CancellationError {
        // Cancelled while waiting for the window: nothing was shown.
      } catch {
        await tearDownInOrder()
        throw error
      }
    }
    await shutdown.wait()
    await tearDownInOrder()
  }
}
