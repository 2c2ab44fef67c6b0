import ContainmentTestKit

@testable import Containment
@testable import ContainmentLocking

/// A shared log and controllers named after the letters of the contract.
struct Fixture {
  let log = HookLog()

  func controller(_ name: String, forwards: Bool = true) -> RecordingController {
    RecordingController(name, log: log, forwardsAppearance: forwards)
  }

  /// Puts `root` in a new window and empties the log.
  func onScreen(_ root: RecordingController) async throws -> Window {
    let window = Window()
    try await window.setRootViewController(root)
    _ = log.take()
    return window
  }

  /// A small on-screen tree R > P > C, returned with its window; empties the log.
  func tree() async throws -> (Window, RecordingController, RecordingController, RecordingController) {
    let r = controller("R")
    let p = controller("P")
    let c = controller("C")
    let window = try await onScreen(r)
    try await install(p, in: r)
    try await install(c, in: p)
    return (window, r, p, c)
  }

  /// The UIKit three-step add: addChild, install the view, didMove.
  ///
  /// Empties the log.
  func install(_ child: RecordingController, in parent: RecordingController) async throws {
    try await parent.addChild(child)
    try await parent.view.addSubview(await child.view)
    await child.didMove(toParent: parent)
    _ = log.take()
  }
}

/// Names of a controller list, for readable expectations.
func names(_ controllers: [any ViewController]) -> [String] { controllers.map(\.node.name) }

/// A snapshot of a tree's links, to assert "nothing changed".
func snapshot(_ root: any ViewController) -> [String] {
  var lines: [String] = []
  func visit(_ controller: any ViewController, depth: Int) {
    let view = controller.viewIfLoaded
    let installed = view?.superview != nil ? "installed" : "detached"
    lines.append(
      "\(String(repeating: " ", count: depth))\(controller.node.name) parent=\(controller.parent?.node.name ?? "nil") \(controller.node.appearanceState) \(installed)"
    )
    for child in controller.children { visit(child, depth: depth + 1) }
  }
  visit(root, depth: 0)
  return lines
}

/// Reads up to `count` events (fewer if the stream ends first).
func take(_ count: Int, from iterator: inout LifecycleEvents.AsyncIterator) async -> [LifecycleEvent] {
  var events: [LifecycleEvent] = []
  for _ in 0..<count {
    guard let event = await iterator.next() else { break }
    events.append(event)
  }
  return events
}

/// Waits out any link update that a released window or container handed to
/// the link lock and that another thread is running right now: such an update
/// holds what it updates for the length of one critical section, so a leak
/// check reads its weak references after one.
func settleReleases() {
  TreeLock.settleReleases()
}

/// A gate that `controller`'s `hook` waits for, until it is opened (its
/// other hooks run as usual).
func hang(_ controller: RecordingController, in hook: String) async -> Gate {
  let hung = Gate()
  await controller.setOnHook { name in
    if name == hook { await hung.wait() }
  }
  return hung
}
