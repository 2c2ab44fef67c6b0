import Containment

/// Presenting on top of a presentation chain: a window's root presents a
/// chain of `depth` controllers (page sheets, not animated), and the top of
/// the chain presents and dismisses one more controller, again and again.
///
/// The cost should not depend on the chain's length.
struct PresentationChain: Sendable {
  let window: Window
  let top: BenchController
  let leaf: BenchController

  /// A window whose root presents a chain `depth` deep, and a leaf whose
  /// view is loaded, with every hook count reset.
  static func make(depth: Int) async throws -> PresentationChain {
    let window = Window()
    let root = BenchController("root")
    try await window.setRootViewController(root)
    var top = root
    for index in 0..<depth {
      let next = BenchController("sheet\(index)")
      try await top.present(next, style: .pageSheet, animated: false)
      top = next
    }
    let leaf = BenchController("leaf")
    _ = await leaf.view
    _ = await leaf.takeHookCount()
    return PresentationChain(window: window, top: top, leaf: leaf)
  }

  /// `count` presentations of the leaf by the top, each dismissed: 5 hooks
  /// each (the leaf appears, then disappears; a page sheet leaves its
  /// presenter on screen).
  func presentDismiss(_ count: Int) async throws -> Duration {
    let elapsed = try await Stopwatch.time {
      for _ in 0..<count {
        try await top.present(leaf, style: .pageSheet, animated: false)
        try await top.dismiss(animated: false)
      }
    }
    try await RuntimeOperations.expectHooks([leaf], 5 * count, "present+dismiss")
    return elapsed
  }
}
