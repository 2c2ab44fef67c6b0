import Containment

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A screen of the demo that prints each of its lifecycle hooks to standard
/// output as "Name.hook", one line each, as it runs: the demo's output is its
/// hook log, which the child-process test reads.
actor Screen: ViewController {
  nonisolated let node: ControllerNode

  init(_ name: String) { node = ControllerNode(name: name) }

  private func record(_ hook: String) { Output.line("\(node.name).\(hook)") }

  func viewWillAppear(_ animated: Bool) async { record("viewWillAppear") }
  func viewDidAppear(_ animated: Bool) async { record("viewDidAppear") }
  func viewWillDisappear(_ animated: Bool) async { record("viewWillDisappear") }
  func viewDidDisappear(_ animated: Bool) async { record("viewDidDisappear") }
  func viewDidTearDown() async { record("viewDidTearDown") }

  /// The UIKit three-step add, as one transaction on this container's queue:
  /// `child` becomes this screen's child and its view a subview of this one's.
  nonisolated func embed(_ child: Screen) async throws {
    try await withTransaction { _ in
      try await self.addChild(child)
      try await self.view.addSubview(await child.view)
      await child.didMove(toParent: self)
    }
  }
}

/// The demo's standard output: whole lines, each flushed at once, so that a
/// reader at the other end of a pipe sees a line as soon as it is printed.
enum Output {
  static func line(_ text: String) {
    print(text)
    fflush(nil)  // every output stream: standard output is the one written to
  }
}
