import Containment

/// The built-in navigation container: `push(_:animated: false)` and
/// `pop(animated: false)` on a ``NavigationController`` that is a window's
/// root.
///
/// A push and a pop each deliver N2/N3's seven hooks to the old and the new top
/// (``HookCounts/navigationPush``).
struct NavigationStack: StackDriver {
  let navigation: NavigationController

  static var label: String { "NavigationController.push/pop(animated: false)" }
  static var hooksPerPair: Int { 2 * HookCounts.navigationPush }

  // A request made outside any transaction has completed when the verb
  // returns (its handle is complete), so the handles are dropped, as an app
  // would; the hook counts and the stack size are checked afterwards.
  func push(_ controller: any ViewController) async throws {
    try await navigation.push(controller, animated: false)
  }

  func pop() async throws {
    try await navigation.pop(animated: false)
  }
}

/// What the push+pop figures need from a navigation-style container:
/// ``NavigationStack`` (the built-in ``NavigationController``, the headline
/// figures) or one of the stand-ins built from public verbs (secondary
/// figures, for comparison: what a container built from public verbs costs).
protocol StackDriver: Sendable {
  /// What the figure's label says about how push and pop are done.
  static var label: String { get }
  /// Hooks one push+pop pair delivers to the root and the pushed controller
  /// (both with their views loaded): what the "nothing lost" check expects.
  static var hooksPerPair: Int { get }
  /// Pushes `controller` on top, not animated; returns when its hooks ran.
  func push(_ controller: any ViewController) async throws
  /// Pops the top controller, not animated; returns when its hooks ran.
  func pop() async throws
}

/// Stand-in for a navigation container, built from public verbs only: push
/// is UIKit's three-step add (`addChild`, add the root view to the
/// container's view, `didMove`), pop the three-step remove (`willMove(nil)`,
/// `removeFromParent`, which takes the view out).
///
/// Unlike a real navigation push the controller below keeps its view installed,
/// so it gets no disappearance hooks.
struct ThreeStepStack: StackDriver {
  let container: any ViewController

  static var label: String { "stand-in: addChild+addSubview+didMove / willMove(nil)+removeFromParent" }
  static var hooksPerPair: Int { HookCounts.pairLoaded }

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
/// controller below disappears and reappears (the hook set of N2/N3,
/// in the order of T2).
struct TransitionStack: StackDriver {
  let container: any ViewController

  static var label: String {
    "stand-in: addChild+transition(.zero)+didMove / willMove(nil)+transition+removeFromParent"
  }
  static var hooksPerPair: Int { HookCounts.pairLoaded + HookCounts.transition }

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
