/// A tree run as a service: a window, its root and a ``GracefulShutdown``,
/// with the shape of swift-service-lifecycle's `Service.run()`; this package
/// depends on nothing.
///
/// In a swift-service-lifecycle `ServiceGroup`, use the integration package
/// `ContainmentServiceLifecycle` (`ContainmentService`): the group asks for a
/// graceful shutdown through a handler, not by cancelling, so a bare
/// `extension TreeService: Service {}` never hears SIGTERM. By hand:
/// `withGracefulShutdownHandler { try await tree.run() } onGracefulShutdown:
/// { tree.shutdownGracefully() }`.
public struct TreeService: Sendable {
  /// The window the tree runs in.
  public let window: Window
  /// The tree's root controller.
  public let root: any ViewController
  /// The signal ``shutdownGracefully()`` sets.
  public let shutdown: GracefulShutdown

  /// A service that will show `root` in `window` when it runs.
  public init(window: Window, root: any ViewController, shutdown: GracefulShutdown = GracefulShutdown()) {
    self.window = window
    self.root = root
    self.shutdown = shutdown
  }

  /// ``Window/run(_:until:)``: shows the tree, suspends until the task is
  /// cancelled or ``shutdownGracefully()`` is called, then tears it down.
  public func run() async throws {
    try await window.run(root, until: shutdown)
  }

  /// Ends ``run()`` gracefully; remembered if it has not started yet.
  ///
  /// Returns immediately.
  public func shutdownGracefully() {
    shutdown.request()
  }
}
