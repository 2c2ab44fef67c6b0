/// The reference counterpart of ``BenchController``: every hook touches the
/// controller's state (a counter), overridden the UIKit way.
@MainActor
final class ReferenceBenchController: ReferenceViewController {
  private var hooks = 0

  func takeHookCount() -> Int {
    defer { hooks = 0 }
    return hooks
  }

  override func viewDidLoad() { hooks &+= 1 }
  override func viewWillAppear(_ animated: Bool) { hooks &+= 1 }
  override func viewIsAppearing(_ animated: Bool) { hooks &+= 1 }
  override func viewDidAppear(_ animated: Bool) { hooks &+= 1 }
  override func viewWillDisappear(_ animated: Bool) { hooks &+= 1 }
  override func viewDidDisappear(_ animated: Bool) { hooks &+= 1 }
  override func viewWillMove(toParent parent: ReferenceViewController?) { hooks &+= 1 }
  override func viewDidMove(toParent parent: ReferenceViewController?) { hooks &+= 1 }
}

/// A window showing one reference container, with a pushed root and one
/// controller to push and pop: the reference side of the push+pop figures.
@MainActor
struct ReferenceStage {
  let window = ReferenceWindow()
  let container = ReferenceBenchController(name: "container")
  let root = ReferenceBenchController(name: "root")
  let top = ReferenceBenchController(name: "top")

  init() {
    window.setRootViewController(container)
    ReferenceThreeStepStack(container: container).push(root)
    _ = top.view
    for controller in [container, root, top] { _ = controller.takeHookCount() }
  }

  /// Hooks delivered to the root and the pushed controller since the last call.
  func takeHookCounts() -> Int { root.takeHookCount() + top.takeHookCount() }
}

/// The reference counterpart of ``ThreeStepStack``: the same three-step push
/// and pop, synchronous, inside the main actor.
@MainActor
struct ReferenceThreeStepStack {
  let container: ReferenceViewController

  func push(_ controller: ReferenceViewController) {
    container.addChild(controller)
    container.view.addSubview(controller.view)
    controller.didMove(toParent: container)
  }

  func pop() {
    guard let top = container.children.last else { return }
    top.willMove(toParent: nil)
    top.removeFromParent()
  }
}

/// The reference counterpart of ``TransitionStack``: push is `addChild` +
/// `transition(from: top, to: new)` + `didMove`, pop the reverse, so the
/// controller below disappears and reappears.
///
/// 14 hooks per pair, like a ``NavigationController`` push+pop (N2/N3): the
/// like-for-like reference for `runtime.pushpop`.
@MainActor
struct ReferenceTransitionStack {
  let container: ReferenceViewController

  func push(_ controller: ReferenceViewController) {
    guard let top = container.children.last else { return }
    container.addChild(controller)
    container.transition(from: top, to: controller)
    controller.didMove(toParent: container)
  }

  func pop() {
    let children = container.children
    guard children.count >= 2, let top = children.last else { return }
    top.willMove(toParent: nil)
    container.transition(from: top, to: children[children.count - 2])
    top.removeFromParent()
  }
}
