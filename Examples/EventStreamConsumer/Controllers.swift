import Containment

/// A leaf screen: all default hooks; the runtime records every event.
actor Screen: ViewController {
  nonisolated let node: ControllerNode
  init(_ name: String) { node = ControllerNode(name: name) }
}

/// A custom container that forwards appearance automatically (UIKit's default).
actor Shell: ViewController {
  nonisolated let node: ControllerNode
  init(_ name: String) { node = ControllerNode(name: name) }

  /// The UIKit three-step add: addChild, install the view, didMove.
  func show(_ child: any ViewController) async throws {
    try await addChild(child)
    let childView = await child.view
    childView.frame = await view.bounds
    try await view.addSubview(childView)
    await child.didMove(toParent: self)
  }

  /// The UIKit three-step remove: willMove(nil), remove (view and link).
  func dismiss(_ child: any ViewController) async throws {
    await child.willMove(toParent: nil)
    try await child.removeFromParent()
  }
}

/// A container that forwards appearance itself, and swaps panes as one batch.
actor Panes: ViewController {
  nonisolated let node: ControllerNode
  nonisolated var shouldAutomaticallyForwardAppearanceMethods: Bool { false }
  init(_ name: String) { node = ControllerNode(name: name) }

  func install(_ child: any ViewController) async throws {
    try await addChild(child)
    try await view.addSubview(await child.view)
    await child.didMove(toParent: self)
  }
}
