import ContainmentLocking
/// Clear-box seams for the package's own tests: not part of the public API.
extension ControllerNode {
  /// Returns once at least `count` readers of `view` are waiting for a load
  /// of this controller's view that is still in progress (C7), or once that
  /// load has finished.
  func viewReaders(atLeast count: Int) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = TreeLock.withLock(self) { (held: LinkSection) -> Bool in
        guard case .loading(let waiters) = self[held].viewLoad, waiters.count < count else { return true }
        self[held].viewReaderObservers.add(count, continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Whether this controller's tree left another and has not yet taken a
  /// link lock of its own (R5; ``separateTreeIfItLeftAnother()``): false
  /// once a transaction of the tree has been admitted uncontended since.
  ///
  /// For the stress harness's end-of-run check.
  package var sharesTheLockOfATreeItLeft: Bool {
    TreeLock.withLock(self) { held in position(held).treeSlot[held].leftATree }
  }
}

extension HierarchySlot {
  /// Returns once at least `count` top-level transactions wait for admission
  /// on this slot: for a transaction below it that is running or pending,
  /// for its own descendants, or for the tree it stands for to become idle
  /// before they adopt it.
  func waiters(atLeast count: Int) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = TreeLock.withLock(self) { (held: LinkSection) -> Bool in
        if self[held].waiters.count >= count { return true }
        self[held].waiterObservers.add(count, continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
