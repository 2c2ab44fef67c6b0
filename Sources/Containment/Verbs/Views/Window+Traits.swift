import ContainmentLocking

extension Window {
  /// Changes the traits and tells every controller of the hosted tree, parent
  /// first, children in order, then what each presents (D3): a presented
  /// controller is shown in this window too.
  ///
  /// One transaction on the window's queue. Throws
  /// ``ContainmentError/windowTornDown`` after the window's teardown; then
  /// nothing changes.
  public func setTraitCollection(_ traits: TraitCollection) async throws {
    try await Transaction.perform(on: .window(self)) { context in
      let (previous, controllers) = try TreeLock.withLock(self) {
        (held: LinkSection) -> (TraitCollection, [any ViewController]) in
        if self[held].isTornDown { throw ContainmentError.windowTornDown }
        let previous = self[held].traits
        self[held].traits = traits
        guard let root = self[held].rootViewController else { return (previous, []) }
        return (previous, TreeWalk.preorder(held, from: root))
      }
      guard previous != traits else { return }
      for controller in controllers {
        await controller.deliver(.traitCollectionDidChange(previous: previous, current: traits), in: context)
      }
    }
  }
}
