import Containment

extension World {
  /// Puts `leaf` in `container` (nil: detached), its view installed or not,
  /// one sequential step at a time: how the reducer recreates the
  /// preconditions of the operations it replays on a fresh world.
  func place(_ leaf: Int, in container: Int?, installed: Bool) async {
    let child = self[leaf]
    let current = child.parent as? StressController
    let isInstalled = child.viewIfLoaded?.superview != nil
    if let current, current.index == container, isInstalled == installed { return }
    if let current {
      if !current.forwards, child.node.appearanceState == .appeared {
        await child.beginAppearanceTransition(false, animated: false)
        await child.endAppearanceTransition()
      }
      await child.willMove(toParent: nil)
      try? await child.view.removeFromSuperview()
      _ = try? await child.removeFromParent()
    }
    guard let container else { return }
    let parent = self[container]
    _ = try? await parent.addChild(child)
    if installed {
      try? await parent.view.addSubview(await child.view)
      await child.didMove(toParent: parent)
    }
  }

  /// The preconditions of `operation`, established in sequence (see `place`).
  func prepare(_ operation: Operation) async {
    let t = operation.targets
    switch operation.kind {
    case .add, .install:
      await place(t[1], in: nil, installed: false)
    case .move:
      if let other = containers(for: t[1]).first(where: { $0 != t[0] }) { await place(t[1], in: other, installed: true) }
    case .oppositeMoves:
      await place(t[1], in: t[0], installed: true)
      await place(t[3], in: t[2], installed: true)
    case .remove:
      if self[t[0]].parent == nil, let container = containers(for: t[0]).first { await place(t[0], in: container, installed: true) }
    case .uninstall, .manualAppearance:
      await place(t[1], in: t[0], installed: true)
    case .transition:
      await place(t[1], in: t[0], installed: true)
      await place(t[2], in: t[0], installed: false)
    case .batch:
      for child in t.dropFirst() { await place(child, in: t[0], installed: true) }
    case .nested:
      if (self[t[1]].parent as? StressController)?.index == t[0] { await place(t[1], in: nil, installed: false) }
    case .toggleContainer, .misuse:
      break
    }
  }
}
