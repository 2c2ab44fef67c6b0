import Containment

/// A controller that implements every hook, each doing what a real hook does
/// at the least: touching its actor's state (a counter). The counter lets a
/// benchmark prove afterwards that every hook ran exactly as often as the
/// contract says ("all hooks delivered", "nothing lost").
actor BenchController: ViewController {
  nonisolated let node: ControllerNode
  private nonisolated let forwardsAppearance: Bool
  private var hooks = 0

  init(_ name: String = "c", forwardsAppearance: Bool = true) {
    node = ControllerNode(name: name)
    self.forwardsAppearance = forwardsAppearance
  }

  nonisolated var shouldAutomaticallyForwardAppearanceMethods: Bool { forwardsAppearance }

  /// Hooks run since the last call; resets the count.
  func takeHookCount() -> Int {
    defer { hooks = 0 }
    return hooks
  }

  func viewDidLoad() async { hooks &+= 1 }
  func viewWillAppear(_ animated: Bool) async { hooks &+= 1 }
  func viewIsAppearing(_ animated: Bool) async { hooks &+= 1 }
  func viewDidAppear(_ animated: Bool) async { hooks &+= 1 }
  func viewWillDisappear(_ animated: Bool) async { hooks &+= 1 }
  func viewDidDisappear(_ animated: Bool) async { hooks &+= 1 }
  func viewWillMove(toParent parent: (any ViewController)?) async { hooks &+= 1 }
  func viewDidMove(toParent parent: (any ViewController)?) async { hooks &+= 1 }
}

/// The least a user can write: a controller with only its node. The subject
/// of the memory figure.
actor IdleController: ViewController {
  nonisolated let node = ControllerNode(name: "idle")
}

extension Array where Element == BenchController {
  /// Sum of the hook counts of every controller, resetting them.
  func takeHookCounts() async -> Int {
    var total = 0
    for controller in self { total += await controller.takeHookCount() }
    return total
  }
}
