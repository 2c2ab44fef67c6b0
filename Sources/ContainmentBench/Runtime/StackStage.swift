import Containment

/// A stack on screen with its root in place and a second controller ready to
/// be pushed and popped: the stage of every push+pop figure.
///
/// Both controllers have their views loaded and their hook counts reset.
struct StackStage: Sendable {
  /// Kept because views refer to their window weakly.
  let window: Window
  let stack: any StackDriver
  /// The controllers on the stack, root first, then `top`: the stack stays
  /// as it is, `top` is pushed and popped.
  let controllers: [BenchController]
  let hooksPerPair: Int
  private let checkQuiescent: @Sendable () throws -> Void

  var top: BenchController { controllers[controllers.count - 1] }

  /// A ``NavigationController`` as a window's root, holding `[root]`.
  static func navigation() async throws -> StackStage { try await navigation(depth: 1) }

  /// A ``NavigationController`` as a window's root, holding `depth`
  /// controllers, set in one `setViewControllers`.
  static func navigation(depth: Int) async throws -> StackStage {
    let window = Window()
    let navigation = NavigationController(name: "nav")
    try await window.setRootViewController(navigation)
    let controllers = await OnScreenContainer.loadedControllers(depth + 1)
    try await navigation.setViewControllers(Array(controllers.prefix(depth)), animated: false)
    _ = await controllers.takeHookCounts()
    return StackStage(
      window: window, stack: NavigationStack(navigation: navigation), controllers: controllers,
      hooksPerPair: NavigationStack.hooksPerPair
    ) {
      let violations = navigation.checkInvariants()
      guard violations.isEmpty else { throw BenchCheckFailure("invariants broken: \(violations)") }
      let count = navigation.viewControllers.count
      guard count == depth else { throw BenchCheckFailure("navigation stack has \(count) entries, expected \(depth)") }
    }
  }

  /// A stand-in stack (`make`) on a ``BenchController`` container that is a
  /// window's root, with the root pushed the three-step way.
  static func standIn<Driver: StackDriver>(_ make: (any ViewController) -> Driver) async throws -> StackStage {
    let stage = try await OnScreenContainer.make()
    let controllers = await OnScreenContainer.loadedControllers(2)
    try await ThreeStepStack(container: stage.container).push(controllers[0])
    _ = await controllers.takeHookCounts()
    return StackStage(
      window: stage.window, stack: make(stage.container), controllers: controllers, hooksPerPair: Driver.hooksPerPair
    ) { try stage.check(children: 1) }
  }

  /// Fails unless the stack is back to what it held before, the tree is
  /// consistent, and exactly `pairs` pairs' hooks were delivered (resets the
  /// counts).
  func check(pairs: Int, _ what: String) async throws {
    try checkQuiescent()
    try await RuntimeOperations.expectHooks(controllers, hooksPerPair * pairs, what)
  }
}
