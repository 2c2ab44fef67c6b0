/// A tree run as a service: a window, its root and a ``GracefulShutdown``,
/// with the `run()` of swift-service-lifecycle's `Service` protocol, so that
/// an application that uses it conforms in one line
/// (`extension TreeService: @retroactive Service {}`); this package depends
/// on nothing.
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
  /// Returns immediately.
  public func shutdownGracefully() {
    shutdown.request()
  }
}
