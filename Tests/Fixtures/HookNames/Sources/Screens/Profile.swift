import Containment

/// A controller written as in UIKit: its `willMove(toParent:)` would never be
/// called by the runtime, and the plugin fails the build on it.
actor Profile: ViewController {
  nonisolated let node = ControllerNode(name: "Profile")

  func willMove(toParent parent: (any ViewController)?) async {}
}
