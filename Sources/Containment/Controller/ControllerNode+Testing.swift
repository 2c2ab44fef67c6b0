/// Clear-box seams for the package's own tests: not part of the public API.
extension ControllerNode {
  /// Returns once at least `count` readers of `view` are waiting for a load
  /// of this controller's view that is still in progress (C7), or once that
  /// load has finished.
  func viewReaders(atLeast count: Int) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = TreeLock.withLock { () -> Bool in
        guard case .loading(let waiters) = _viewLoad, waiters.count < count else { return true }
        _viewReaderObservers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Returns once at least `count` top-level transactions wait for admission
  /// on this controller's slot of hierarchical exclusion: for a transaction
  /// below it that is running or pending, for its own descendants, or for a
  /// tree this controller roots to become idle before they adopt it.
  func exclusionWaiters(atLeast count: Int) async { await hierarchy.waiters(atLeast: count) }

  /// Under the link lock: removes and returns the observers satisfied by
  /// `waiting` readers.
  func _takeViewReaderObservers(satisfiedBy waiting: Int) -> [UnsafeContinuation<Void, Never>] {
    guard !_viewReaderObservers.isEmpty else { return [] }
    var satisfied: [UnsafeContinuation<Void, Never>] = []
    _viewReaderObservers.removeAll { observer in
      guard observer.count <= waiting else { return false }
      satisfied.append(observer.continuation)
      return true
    }
    return satisfied
  }
}

extension HierarchySlot {
  /// Returns once at least `count` top-level transactions wait on this slot.
  func waiters(atLeast count: Int) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = TreeLock.withLock { () -> Bool in
        if waiters.count >= count { return true }
        waiterObservers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
