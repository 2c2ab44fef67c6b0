import Containment

/// A window showing one container: the stage of the runtime figures.
///
/// The window is kept here because views refer to their window weakly.
struct OnScreenContainer: Sendable {
  let window: Window
  let container: BenchController

  /// A new window whose root is a new container (appeared), with `loadedChildren`
  /// detached children whose views are already loaded.
  static func make(forwardsAppearance: Bool = true) async throws -> OnScreenContainer {
    let window = Window()
    let container = BenchController("container", forwardsAppearance: forwardsAppearance)
    try await window.setRootViewController(container)
    _ = await container.takeHookCount()
    return OnScreenContainer(window: window, container: container)
  }

  /// `count` detached controllers with their views loaded and counts reset.
  static func loadedControllers(_ count: Int, name: String = "child") async -> [BenchController] {
    var controllers: [BenchController] = []
    for index in 0..<count {
      let controller = BenchController("\(name)\(index)")
      _ = await controller.view
      _ = await controller.takeHookCount()
      controllers.append(controller)
    }
    return controllers
  }

  /// Makes `children` the container's children with their views installed
  /// (three-step add each; they appear), and resets their hook counts.
  func install(_ children: [BenchController]) async throws {
    for child in children {
      try await container.addChild(child)
      try await container.view.addSubview(await child.view)
      await child.didMove(toParent: container)
    }
    _ = await children.takeHookCounts()
  }

  /// Fails unless the tree below the window is consistent and the container
  /// has `children` children.
  func check(children expected: Int) throws {
    let violations = container.checkInvariants()
    guard violations.isEmpty else { throw BenchCheckFailure("invariants broken: \(violations)") }
    let count = container.children.count
    guard count == expected else { throw BenchCheckFailure("container has \(count) children, expected \(expected)") }
  }
}
