import Containment
import ContainmentLocking

/// What the tab-switch figures need from a tab container: ``TabBarTabs``
/// (the built-in ``TabBarController``, the headline figure) or the
/// ``TransitionTabs`` stand-in (secondary figure).
protocol TabDriver: Sendable {
  static var label: String { get }
  /// Shows tab `index`; returns when its hooks ran.
  func select(_ index: Int) async throws
}

/// The built-in tab container: `setSelectedIndex(_:)` (the code path,
/// B3: no delegate) on a ``TabBarController`` that is a window's root.
///
/// A switch delivers B2's five hooks (views already loaded).
struct TabBarTabs: TabDriver {
  let tabBar: TabBarController

  static var label: String { "TabBarController.setSelectedIndex" }

  func select(_ index: Int) async throws {
    try await tabBar.setSelectedIndex(index)
  }
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
