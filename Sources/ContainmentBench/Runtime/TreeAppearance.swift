import Containment

/// Appearance of a whole tree: a 10-ary tree of N controllers,
/// every child's view installed in its parent's view, built off screen; the
/// timed operation is `Window.setRootViewController(root)`, which forwards
/// appearance to every controller (A1).
///
/// Afterwards each controller must have had exactly viewWillAppear,
/// viewIsAppearing and viewDidAppear.
enum TreeAppearance {
  static let fanOut = 10

  static func run(_ sampler: Sampler, options: BenchOptions) async throws -> [Figure] {
    var figures: [Figure] = []
    for size in [1_000, 10_000, 100_000] where sampler.selects("tree.appear-\(size)") {
      let tree = try await Tree.build(size: size)
      let reps = size == 100_000 ? min(sampler.repetitions, options.quick ? 1 : 3) : sampler.repetitions
      var figure = try await sampler.whole(
        "tree.appear-\(size)", group: .tree, "appearance of a tree of \(size) controllers (all hooks delivered)",
        repetitions: reps, warmUp: size < 100_000,
        note: "built in \(NumberFormatting.readable(tree.buildSeconds, unit: .seconds))"
      ) { try await tree.appearOnce() }
      figure.note +=
        ", \(NumberFormatting.readable(figure.median * 1e9 / Double(size), unit: .nanosecondsPerOperation))/controller"
      figures.append(figure)
    }
    return figures
  }

  /// A tree and the window it is shown in.
  struct Tree {
    let controllers: [BenchController]
    let window: Window
    let buildSeconds: Double

    var root: BenchController { controllers[0] }

    /// Builds `size` controllers as a 10-ary tree (breadth first), each
    /// child installed with the three-step add, off screen.
    static func build(size: Int) async throws -> Tree {
      let watch = Stopwatch()
      var controllers: [BenchController] = []
      controllers.reserveCapacity(size)
      for index in 0..<size {
        let controller = BenchController("n\(index)")
        if index > 0 {
          let parent = controllers[(index - 1) / fanOut]
          try await parent.addChild(controller)
          try await parent.view.addSubview(await controller.view)
          await controller.didMove(toParent: parent)
        }
        controllers.append(controller)
      }
      _ = await controllers.takeHookCounts()
      return Tree(controllers: controllers, window: Window(), buildSeconds: watch.elapsed.nanoseconds / 1e9)
    }

    /// Shows the tree (timed), checks every hook, then takes it off screen
    /// again (untimed).
    func appearOnce() async throws -> Duration {
      let elapsed = try await Stopwatch.time { try await window.setRootViewController(root) }
      let delivered = await controllers.takeHookCounts()
      guard delivered == HookCounts.appear * controllers.count else {
        throw BenchCheckFailure(
          "tree of \(controllers.count): \(delivered) appearance hooks, expected \(HookCounts.appear * controllers.count)"
        )
      }
      for controller in controllers where controller.node.appearanceState != .appeared {
        throw BenchCheckFailure("\(controller.node.name) is \(controller.node.appearanceState) after appearing")
      }
      try await window.setRootViewController(nil)
      _ = await controllers.takeHookCounts()
      return elapsed
    }
  }
}
