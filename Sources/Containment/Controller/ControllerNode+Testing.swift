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
