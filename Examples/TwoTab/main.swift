// The two-tab custom container of SPEC §9, written as a user of the library
// writes it: public API only. A container holds two children, keeps one of
// them active, and two "buttons" switch between them, instantly (the UIKit
// three-step remove and add) or animated (`transition(from:to:)`). Every
// controller prints its hooks, so the output is the hook log.
//
//   swift run two-tab

import Containment

/// A page that prints every lifecycle hook it receives.
actor Page: ViewController {
  nonisolated let node: ControllerNode

  init(_ name: String) { node = ControllerNode(name: name) }

  private func log(_ hook: String) { print("  \(node.name).\(hook)") }
  private static func name(_ parent: (any ViewController)?) -> String { parent?.node.name ?? "nil" }

  func viewDidLoad() async { log("viewDidLoad") }
  func viewWillAppear(_ animated: Bool) async { log("viewWillAppear(animated: \(animated))") }
  func viewIsAppearing(_ animated: Bool) async { log("viewIsAppearing") }
  func viewDidAppear(_ animated: Bool) async { log("viewDidAppear") }
  func viewWillDisappear(_ animated: Bool) async { log("viewWillDisappear(animated: \(animated))") }
  func viewDidDisappear(_ animated: Bool) async { log("viewDidDisappear") }
  func viewWillMove(toParent parent: (any ViewController)?) async { log("willMove(toParent: \(Self.name(parent)))") }
  func viewDidMove(toParent parent: (any ViewController)?) async { log("didMove(toParent: \(Self.name(parent)))") }
}

/// The container: two children, one active, two buttons.
actor TwoTabContainer: ViewController {
  enum Button: CustomStringConvertible {
    case first, second
    var description: String { self == .first ? "first" : "second" }
  }

  /// The strip at the bottom that holds the two buttons.
  static let buttonBarHeight = 50.0

  nonisolated let node = ControllerNode(name: "TwoTab")
  let first: any ViewController
  let second: any ViewController
  private(set) var active: (any ViewController)?

  init(first: any ViewController, second: any ViewController) {
    self.first = first
    self.second = second
  }

  /// The first child becomes active when the container's view loads.
  func viewDidLoad() async {
    print("  TwoTab.viewDidLoad")
    do {
      try await setActive(first)
    } catch {
      print("  could not show the first child: \(error)")
    }
  }

  func viewWillAppear(_ animated: Bool) async { print("  TwoTab.viewWillAppear") }
  func viewDidAppear(_ animated: Bool) async { print("  TwoTab.viewDidAppear") }

  /// A button tap. Taps are handled one at a time (each `await`s the last),
  /// as a real button bar would deliver them.
  func tap(_ button: Button, animated: Bool = false) async throws {
    let target = button == .first ? first : second
    if animated {
      try await transition(to: target)
    } else {
      try await setActive(target)
    }
  }

  /// The area children fill: the container's bounds above the button bar.
  private func contentArea() async -> Rect {
    let bounds = await view.bounds
    return Rect(x: 0, y: 0, width: bounds.width, height: max(0, bounds.height - Self.buttonBarHeight))
  }

  /// Swaps the active child at once: remove the old one the UIKit way
  /// (`willMove(nil)`, remove its root view, `removeFromParent`), then add the
  /// new one (`addChild`, size its root view to the content area, add it,
  /// `didMove(self)`).
  private func setActive(_ child: any ViewController) async throws {
    guard child !== active else { return }
    if let old = active {
      await old.willMove(toParent: nil)
      try await old.view.removeFromSuperview()
      try await old.removeFromParent()
    }
    try await addChild(child)
    let childView = await child.view
    childView.frame = await contentArea()
    try await view.addSubview(childView)
    await child.didMove(toParent: self)
    active = child
  }

  /// The animated variant: the runtime's `transition(from:to:)` swaps the two
  /// root views while the old child disappears and the new one appears.
  private func transition(to child: any ViewController) async throws {
    guard let old = active, old !== child else { return try await setActive(child) }
    try await addChild(child)
    await old.willMove(toParent: nil)
    (await child.view).frame = await contentArea()
    try await transition(from: old, to: child, duration: .milliseconds(200), options: .crossDissolve)
    try await old.removeFromParent()
    await child.didMove(toParent: self)
    active = child
  }
}

// The app's start-up code: create the two children, hand them to the
// container, make the container the window's root.
let first = Page("first")
let second = Page("second")
let container = TwoTabContainer(first: first, second: second)
let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))

print("start-up:")
try await window.setRootViewController(container)

// A tiny script stands in for the user's taps.
let script: [(TwoTabContainer.Button, animated: Bool)] = [(.second, false), (.first, true), (.first, false), (.second, true)]
for (button, animated) in script {
  print("tap \(button)\(animated ? " (animated)" : ""):")
  try await container.tap(button, animated: animated)
}

if let active = await container.active, let frame = active.viewIfLoaded?.frame {
  print("active: \(active.node.name), frame \(frame)")
}
let problems = container.checkInvariants()
print(problems.isEmpty ? "invariants hold" : "invariant violations: \(problems)")
print("tear-down:")
try await window.tearDown()
