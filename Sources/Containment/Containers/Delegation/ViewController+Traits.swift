import ContainmentLocking
extension ViewController {
  /// The traits this controller lives in: those of the window its tree is
  /// shown in, or the default (`regular`) when it is in none.
  ///
  /// Synchronous.
  ///
  /// Changes arrive through ``traitCollectionDidChange(_:)``, window first,
  /// then down the tree parent first (D3, ``Window/setTraitCollection(_:)``).
  public nonisolated var traitCollection: TraitCollection {
    TreeLock.withLock(node) { held in node.hostingWindow(held)?[held].traits ?? TraitCollection() }
  }
}
