import Containment

/// What the tab-switch figure needs from a tab container. The built-in tab
/// container is not available yet; when it is, make it conform (select =
/// setting `selectedIndex`) and pass it instead of ``TransitionTabs``.
protocol TabDriver: Sendable {
  static var label: String { get }
  /// Shows tab `index`; returns when its hooks ran.
  func select(_ index: Int) async throws
}

/// Stand-in for a tab container, built from public verbs only: every tab is
/// a child, only the selected one's view is installed, and a switch is
/// `transition(from: old, to: new, duration: .zero)`.
final class TransitionTabs: TabDriver {
  let container: any ViewController
  let tabs: [any ViewController]
  private let selected = Locked(0)

  static var label: String { "stand-in: transition(from:to:duration: .zero) between two children" }

  /// Adds `tabs` to `container` and installs the first one's view.
  init(container: any ViewController, tabs: [any ViewController]) async throws {
    self.container = container
    self.tabs = tabs
    for tab in tabs {
      try await container.addChild(tab)
      await tab.didMove(toParent: container)
    }
    try await container.view.addSubview(await tabs[0].view)
  }

  func select(_ index: Int) async throws {
    let current = selected.withLock { $0 }
    guard index != current else { return }
    try await container.transition(from: tabs[current], to: tabs[index], duration: .zero)
    selected.withLock { $0 = index }
  }
}
