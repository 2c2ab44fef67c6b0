extension ViewController {
  /// The root view, loaded on first access: `loadView()` runs once, then
  /// `viewDidLoad()` runs exactly once, right after (§1).
  ///
  /// Concurrent first accesses wait for the one load and return only after
  /// `viewDidLoad()` has returned (C7), so no appearance hook of this
  /// controller can run while its `viewDidLoad()` is still running. An access
  /// from inside `viewDidLoad()` (or a task it starts) returns the new view
  /// at once. Do not access `view` from
  /// `loadView()`: that access would wait for itself.
  public nonisolated var view: View {
    get async { await loadViewIfNeeded(in: TransactionContext.current?.innermostRunning) }
  }

  /// The root view if it was loaded, without loading it.
  public nonisolated var viewIfLoaded: View? { node.viewIfLoaded }

  /// Whether the root view was loaded.
  public nonisolated var isViewLoaded: Bool { node.isViewLoaded }

  nonisolated(nonsending) func loadViewIfNeeded(in context: TransactionContext?) async -> View {
    let node = self.node
    let step = TreeLock.withLock(node) { () -> ViewLoadStep in
      // Ready only once `viewDidLoad` has returned (C7); until then every
      // reader but the loading task itself (and the hooks it runs) waits.
      if let view = node._view, case .loaded = node._viewLoad { return .ready(view) }
      if let view = node._view, ViewLoading.current.contains(node.id) { return .ready(view) }
      if case .loading = node._viewLoad { return .wait }
      node._viewLoad = .loading([])
      return .load
    }
    switch step {
    case .ready(let view):
      return view
    case .wait:
      return await withUnsafeContinuation { continuation in
        let (ready, observers) = TreeLock.withLock(node) { () -> (View?, [UnsafeContinuation<Void, Never>]) in
          if let view = node._view, case .loaded = node._viewLoad { return (view, []) }
          guard case .loading(var waiters) = node._viewLoad else { return (nil, []) }
          waiters.append(continuation)
          node._viewLoad = .loading(waiters)
          return (nil, node._viewReaderObservers.takeSatisfied(by: waiters.count))
        }
        if let ready { continuation.resume(returning: ready) }
        for observer in observers { observer.resume() }
      }
    case .load:
      // A `loadView` no longer waited for leaves a plain view (and the
      // controller faulted).
      let view = await Gateway.call(UserCall("loadView", of: self), in: context, ifAbandoned: { View() }) {
        await self.loadView()
      }
      TreeLock.withLock(node, view) {
        TreeLock._join(view, into: node.linkDomain)
        view._owner = self
        node._view = view
      }
      var loading = ViewLoading.current
      loading.insert(node.id)
      await ViewLoading.$current.withValue(loading) { await deliver(.viewDidLoad, in: context) }
      let (waiters, observers) = TreeLock.withLock(node) {
        () -> ([UnsafeContinuation<View, Never>], [UnsafeContinuation<Void, Never>]) in
        defer { node._viewLoad = .loaded }
        let observers = node._viewReaderObservers.takeSatisfied(by: .max)
        if case .loading(let waiters) = node._viewLoad { return (waiters, observers) }
        return ([], observers)
      }
      for waiter in waiters { waiter.resume(returning: view) }
      for observer in observers { observer.resume() }
      return view
    }
  }
}

private enum ViewLoadStep {
  case ready(View)
  case wait, load
}

/// The controllers whose `viewDidLoad` the current task is running: their
/// `view` is readable from inside it.
enum ViewLoading {
  @TaskLocal static var current: Set<ControllerID> = []
}
