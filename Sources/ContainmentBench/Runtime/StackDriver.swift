import Containment

/// What the push+pop figures need from a navigation-style container. The
/// built-in navigation container is not available yet; when it is, make it
/// conform (push = `pushViewController`, pop = `popViewController`) and pass
/// it to ``RuntimeOperations`` instead of ``ThreeStepStack``.
protocol StackDriver: Sendable {
  /// What the figure's label says about how push and pop are done.
  static var label: String { get }
  /// Pushes `controller` on top, not animated; returns when its hooks ran.
  func push(_ controller: any ViewController) async throws
  /// Pops the top controller, not animated; returns when its hooks ran.
  func pop() async throws
}

/// Stand-in for a navigation container, built from public verbs only: push
/// is UIKit's three-step add (`addChild`, add the root view to the
/// container's view, `didMove`), pop the three-step remove (`willMove(nil)`,
/// `removeFromParent`, which takes the view out). Unlike a real navigation
/// push the controller below keeps its view installed, so it gets no
/// disappearance hooks.
struct ThreeStepStack: StackDriver {
  let container: any ViewController

  static var label: String { "stand-in: addChild+addSubview+didMove / willMove(nil)+removeFromParent" }

  func push(_ controller: any ViewController) async throws {
    try await container.addChild(controller)
    try await container.view.addSubview(await controller.view)
    await controller.didMove(toParent: container)
  }

  func pop() async throws {
    guard let top = container.children.last else { throw BenchCheckFailure("pop on an empty stack") }
    await top.willMove(toParent: nil)
    try await top.removeFromParent()
  }
}

/// A second stand-in, closer to a real navigation container: the new top
/// replaces the old one with `transition(from:to:duration: .zero)`, so the
/// controller below disappears and reappears (the hook set of SPEC N2/N3,
/// in the order of T2).
struct TransitionStack: StackDriver {
  let container: any ViewController

  static var label: String { "stand-in: addChild+transition(.zero)+didMove / willMove(nil)+transition+removeFromParent" }

  func push(_ controller: any ViewController) async throws {
    guard let top = container.children.last else { throw BenchCheckFailure("push needs a root") }
    try await container.addChild(controller)
    try await container.transition(from: top, to: controller, duration: .zero)
    await controller.didMove(toParent: container)
  }

  func pop() async throws {
    let children = container.children
    guard children.count >= 2, let top = children.last else { throw BenchCheckFailure("cannot pop the root") }
    await top.willMove(toParent: nil)
    try await container.transition(from: top, to: children[children.count - 2], duration: .zero)
    try await top.removeFromParent()
  }
}
