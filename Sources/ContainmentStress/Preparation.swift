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
  /// A leaf is placed for the first operation that names it only: later ones
  /// found it wherever the earlier ones left it.
  func prepare(_ operation: Operation, prepared: inout Set<Int>) async {
    let t = operation.targets
    let fresh = Set(t.filter { !prepared.contains($0) })
    prepared.formUnion(leaves.filter { t.contains($0) })
    func place(_ leaf: Int, in container: Int?, installed: Bool) async {
      guard fresh.contains(leaf) else { return }
      await self.place(leaf, in: container, installed: installed)
    }
    switch operation.kind {
    case .add, .install:
      await place(t[1], in: nil, installed: false)
    case .move:
      if let other = containers(for: t[1]).first(where: { $0 != t[0] }) { await place(t[1], in: other, installed: true) }
    case .oppositeMoves:
      await place(t[1], in: t[0], installed: true)
      await place(t[3], in: t[2], installed: true)
    case .remove:
      if fresh.contains(t[0]), self[t[0]].parent == nil, let container = containers(for: t[0]).first {
        await place(t[0], in: container, installed: true)
      }
    case .uninstall, .manualAppearance:
      await place(t[1], in: t[0], installed: true)
    case .transition:
      await place(t[1], in: t[0], installed: true)
      await place(t[2], in: t[0], installed: false)
    case .batch:
      for child in t.dropFirst() { await place(child, in: t[0], installed: true) }
    case .nested:
      if (self[t[1]].parent as? StressController)?.index == t[0] { await place(t[1], in: nil, installed: false) }
      if let other = containers(for: t[2]).first { await place(t[2], in: other, installed: true) }
    case .toggleContainer:
      let container = self[t[1]], root = self[t[0]]
      let installed = container.viewIfLoaded?.superview != nil
      if operation.variant == 1, !installed { try? await root.view.addSubview(await container.view) }
      if operation.variant == 2, installed { try? await container.view.removeFromSuperview() }
    case .misuse:
      break
    case .push, .pop, .popTo, .popToRoot, .setStack, .selectTab, .setTabIndex, .setTabs, .traitFlip, .showColumn:
      break  // container operations: the runtime decides (their preconditions are not modelled)
    }
  }
}
