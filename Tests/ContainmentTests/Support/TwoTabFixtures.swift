import Containment
import ContainmentTestKit

/// A page of the two-tab container: a controller with the default hooks.
actor TabPage: ViewController {
  nonisolated let node: ControllerNode
  init(_ name: String) { node = ControllerNode(name: name) }
}

/// The two-tab custom container of `Examples/TwoTab` (the contract's §9),
/// copied here because an executable's code cannot be imported: two
/// children, one active, switched instantly (the UIKit three-step remove and
/// add) or animated (`transition(from:to:)`).
///
/// With `oneTransactionPerTap` (the example's way) each tap is one
/// `withTransaction` scope. Without it, the tap runs the same verbs with no
/// scope, so the remove, the add, the view install and `didMove` are
/// separate transactions that another tap can fall between: the broken
/// container the checker must catch.
actor TwoTabContainer: ViewController {
  enum Button: Sendable {
    case first, second
  }

  nonisolated let node: ControllerNode
  nonisolated let first: any ViewController
  nonisolated let second: any ViewController
  nonisolated let oneTransactionPerTap: Bool
  private var active: (any ViewController)?

  init(first: any ViewController, second: any ViewController, oneTransactionPerTap: Bool) {
    node = ControllerNode(name: oneTransactionPerTap ? "TwoTab" : "BrokenTwoTab")
    self.first = first
    self.second = second
    self.oneTransactionPerTap = oneTransactionPerTap
  }

  private func setActive(_ child: any ViewController) { active = child }

  /// The child shown now.
  func shownChild() -> (any ViewController)? { active }

  /// A button tap: the shown child becomes `button`'s.
  nonisolated func tap(_ button: Button, animated: Bool = false) async throws {
    let target = button == .first ? first : second
    if oneTransactionPerTap {
      try await withTransaction { _ in
        try await animated ? self.transition(to: target) : self.show(target)
      }.value
    } else {
      try await animated ? transition(to: target) : show(target)
    }
  }

  /// Shows the child that is not shown, deciding which *before* the tap's
  /// transaction: two toggles at once can both pick the same child, so their
  /// result is not that of two toggles one after the other.
  nonisolated func toggle(animated: Bool) async throws {
    let shown = await shownChild()
    try await tap(shown === first ? .second : .first, animated: animated)
  }

  /// The UIKit three-step remove of the active child, then the three-step add of `child`.
  private nonisolated func show(_ child: any ViewController) async throws {
    let old = await active
    guard child !== old else { return }
    if let old {
      await old.willMove(toParent: nil)
      try await old.view.removeFromSuperview()
      try await old.removeFromParent()
    }
    try await addChild(child)
    let childView = await child.view
    childView.frame = await view.bounds
    try await view.addSubview(childView)
    await child.didMove(toParent: self)
    await setActive(child)
  }

  /// The animated swap: `transition(from:to:)` between the active child and `child`.
  private nonisolated func transition(to child: any ViewController) async throws {
    guard let old = await active, old !== child else { return try await show(child) }
    try await addChild(child)
    await old.willMove(toParent: nil)
    (await child.view).frame = await view.bounds
    try await transition(from: old, to: child, duration: .milliseconds(200), options: .crossDissolve)
    try await old.removeFromParent()
    await child.didMove(toParent: self)
    await setActive(child)
  }
}

/// A two-tab container on screen in its window, showing its first page, as
/// the checker sees it.
struct TwoTabFixture: CheckableContainer {
  let window: Window
  let container: TwoTabContainer
  let first: TabPage
  let second: TabPage
  var controllers: [any ViewController] { [container, first, second] }

  init(environment: ContainmentEnvironment, oneTransactionPerTap: Bool) async throws {
    first = TabPage("first")
    second = TabPage("second")
    container = TwoTabContainer(first: first, second: second, oneTransactionPerTap: oneTransactionPerTap)
    window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844), environment: environment)
    try await window.setRootViewController(container)
    try await container.tap(.first)
  }

  /// The taps a user can make.
  static let taps = [
    ContainerOperation<TwoTabFixture>("tap first") { fixture, animated in
      try await fixture.container.tap(.first, animated: animated)
    },
    ContainerOperation<TwoTabFixture>("tap second") { fixture, animated in
      try await fixture.container.tap(.second, animated: animated)
    },
  ]

  /// The example's container: one transaction per tap.
  static let checker = ContainerChecker<TwoTabFixture>(
    "TwoTab", reference: "TwoTabFixture.checker", operations: taps
  ) { environment in
    try await TwoTabFixture(environment: environment, oneTransactionPerTap: true)
  }

  /// The example's container with a toggle that decides outside its
  /// transaction: every hook well formed, every transaction whole, and yet
  /// two toggles at once are no sequence of toggles.
  static let toggleChecker = ContainerChecker<TwoTabFixture>(
    "ToggleTwoTab", reference: "TwoTabFixture.toggleChecker",
    operations: [
      ContainerOperation("toggle") { fixture, animated in try await fixture.container.toggle(animated: animated) }
    ]
  ) { environment in
    try await TwoTabFixture(environment: environment, oneTransactionPerTap: true)
  }

  /// The broken one: each tap's steps are separate transactions.
  static let brokenChecker = ContainerChecker<TwoTabFixture>(
    "BrokenTwoTab", reference: "TwoTabFixture.brokenChecker", operations: taps
  ) { environment in
    try await TwoTabFixture(environment: environment, oneTransactionPerTap: false)
  }
}
