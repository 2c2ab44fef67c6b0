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
  ///
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
      if let other = containers(for: t[1]).first(where: { $0 != t[0] }) {
        await place(t[1], in: other, installed: true)
      }
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
      let container = self[t[1]]
      let root = self[t[0]]
      let installed = container.viewIfLoaded?.superview != nil
      if operation.variant == 1, !installed { try? await root.view.addSubview(await container.view) }
      if operation.variant == 2, installed { try? await container.view.removeFromSuperview() }
    case .misuse:
      break
    // Built-in containers. A tree's stack and split are prepared for the
    // first operation that needs them only (keys below 0 in `prepared`).
    case .push where operation.variant != 2:
      if fresh.contains(t[1]) { await unstack(t[1]) }
    case .push:
      break
    case .pop, .interactivePop:
      if prepared.insert(-1 - 3 * tree(ofRoot: t[0])).inserted { await deepen(stackOf: tree(ofRoot: t[0])) }
    case .popTo where operation.variant != 2:
      if fresh.contains(t[1]) { await stack(t[1], on: tree(ofRoot: t[0])) }
    case .traitFlip:
      // The flip changes the size class: the window starts in the other one.
      let tree = tree(ofRoot: t[0])
      if prepared.insert(-3 - 3 * tree).inserted { await setCompact(operation.variant != 0, tree: tree) }
    case .showColumn:
      // Collapsed, showing the other column: the request has something to do.
      let tree = tree(ofRoot: t[0])
      if prepared.insert(-3 - 3 * tree).inserted {
        await setCompact(true, tree: tree)
        _ = try? await splits[tree].show(operation.variant == 0 ? .secondary : .primary)
      }
    case .popTo, .popToRoot, .setStack, .selectTab, .setTabIndex, .setTabs:
      break  // the runtime decides (refusals and no-ops are part of what they test)
    case .selfRemoval, .rehome, .scope, .engine, .deepStack, .wideContainer, .tearDownPart:
      break  // they act on whatever shape they find
    case .hungHook, .slowChildren:
      break  // on the supervised trees, outside the model
    case .awaitIdle:
      break  // it changes nothing
    case .orphan, .releasedWindow:
      break  // on controllers of its own
    case .present, .dismiss, .interactiveDismiss, .presentationRoot, .presentMisuse, .presentFromChild:
      break  // on the chains they find (the quiescent point's presentations are restored)
    }
  }

  /// The stack leaf `leaf` off every stack (a stack it leaves empty gets a free leaf instead).
  func unstack(_ leaf: Int) async {
    for (tree, navigation) in navigations.enumerated() {
      let stack = navigation.viewControllers.compactMap { indexByID[$0.node.id] }
      guard stack.contains(leaf) else { continue }
      var rest = stack.filter { $0 != leaf }
      if rest.isEmpty {
        guard let spare = stackLeaves.first(where: { $0 != leaf && self[$0].parent == nil }) else { return }
        rest = [spare]
      }
      _ = try? await navigations[tree].setViewControllers(rest.map { self[$0] }, animated: false)
    }
  }

  /// The stack leaf `leaf` on tree `tree`'s stack (pushed there if it is not).
  func stack(_ leaf: Int, on tree: Int) async {
    guard self[leaf].parent !== navigations[tree] else { return }
    await unstack(leaf)
    _ = try? await navigations[tree].push(self[leaf], animated: false)
  }

  /// At least two controllers on tree `tree`'s stack, so that it can be popped.
  func deepen(stackOf tree: Int) async {
    guard navigations[tree].viewControllers.count < 2 else { return }
    if let spare = stackLeaves.first(where: { self[$0].parent == nil }) {
      _ = try? await navigations[tree].push(self[spare], animated: false)
    } else if let leaf = stackLeaves.first(where: { self[$0].parent !== navigations[tree] }) {
      await stack(leaf, on: tree)
    }
  }

  /// Tree `tree`'s window in the compact (or regular) size class.
  func setCompact(_ compact: Bool, tree: Int) async {
    try? await windows[tree].setTraitCollection(TraitCollection(horizontalSizeClass: compact ? .compact : .regular))
  }

  /// Sets the built-in containers as `model` has them (after `setUpContainers`):
  /// the stacks, the tabs and their selection, the size classes and the
  /// column each collapsed split shows.
  func restoreContainers(_ model: Model) async throws {
    guard model.stacks.count == windows.count, model.compact.count == windows.count else { return }
    for navigation in navigations { try await navigation.setViewControllers([], animated: false) }
    for (tree, navigation) in navigations.enumerated() {
      try await navigation.setViewControllers(model.stacks[tree].map { self[$0] }, animated: false)
    }
    for (tree, tabs) in tabs.enumerated() {
      let list = model.tabList[tree]
      let selected = model.selectedTab[tree].flatMap { list.firstIndex(of: $0) } ?? 0
      try await tabs.setViewControllers(list.map { self[$0] }, selectedIndex: selected)
    }
    for tree in windows.indices where model.compact[tree] {
      await setCompact(true, tree: tree)
      if model.splitCollapsed[tree], model.splitShown[tree] == .secondary { try await splits[tree].show(.secondary) }
    }
  }
}
