import Containment
import ContainmentTestKit

/// The tree the service tests run, built off screen.
///
/// Its shape:
///
///     R ─┬─ A
///        └─ B ─ B1
///
/// Every controller logs its hooks to ``log``.
struct RecordedTree {
  let log = HookLog()
  let r: RecordingController
  let a: RecordingController
  let b: RecordingController
  let b1: RecordingController

  init() async throws {
    r = RecordingController("R", log: log)
    a = RecordingController("A", log: log)
    b = RecordingController("B", log: log)
    b1 = RecordingController("B1", log: log)
    try await Self.embed(a, in: r)
    try await Self.embed(b, in: r)
    try await Self.embed(b1, in: b)
    _ = log.take()  // The building's hooks (moves, loads): not what the tests are about.
  }

  var all: [RecordingController] { [r, a, b, b1] }

  /// The names of the controllers whose tree was torn down.
  var tornDown: [String] { all.filter(\.isTornDown).map(\.node.name) }

  /// The hooks of showing the tree in a window.
  static let shown = [
    "R.viewWillAppear", "A.viewWillAppear", "B.viewWillAppear", "B1.viewWillAppear",
    "R.viewIsAppearing", "A.viewIsAppearing", "B.viewIsAppearing", "B1.viewIsAppearing",
    "R.viewDidAppear", "A.viewDidAppear", "B.viewDidAppear", "B1.viewDidAppear",
  ]

  /// The hooks of taking it off screen (V3's first step: A1 order).
  static let offScreen = [
    "R.viewWillDisappear", "A.viewWillDisappear", "B.viewWillDisappear", "B1.viewWillDisappear",
    "R.viewDidDisappear", "A.viewDidDisappear", "B.viewDidDisappear", "B1.viewDidDisappear",
  ]

  /// The stop hooks: children before parents, siblings in reverse order.
  static let stopped = ["B1.viewDidTearDown", "B.viewDidTearDown", "A.viewDidTearDown", "R.viewDidTearDown"]

  /// The UIKit three-step add, as one transaction on `parent`'s queue.
  static func embed(_ child: RecordingController, in parent: RecordingController) async throws {
    try await parent.withTransaction { _ in
      try await parent.addChild(child)
      try await parent.view.addSubview(await child.view)
      await child.didMove(toParent: parent)
    }
  }
}
