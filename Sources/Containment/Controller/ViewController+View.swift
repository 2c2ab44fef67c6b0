extension ViewController {
  /// The root view, loaded on first access: `loadView()` runs once, then
  /// `viewDidLoad()` runs exactly once, right after (SPEC §1).
  ///
  /// Concurrent first accesses wait for the one load. An access from inside
  /// `viewDidLoad()` returns the new view at once. Do not access `view` from
  /// `loadView()`: that access would wait for itself.
  public nonisolated var view: View {
    get async { await loadViewIfNeeded(in: TransactionContext.current?.runningChain().first) }
  }

  /// The root view if it was loaded, without loading it.
  public nonisolated var viewIfLoaded: View? { node.viewIfLoaded }

  /// Whether the root view was loaded.
  public nonisolated var isViewLoaded: Bool { node.isViewLoaded }

  nonisolated func loadViewIfNeeded(in context: TransactionContext?) async -> View {
    let node = self.node
    let step = TreeLock.withLock { () -> ViewLoadStep in
      if let view = node._view { return .ready(view) }
      if case .loading = node._viewLoad { return .wait }
      node._viewLoad = .loading([])
      return .load
    }
    switch step {
    case .ready(let view):
      return view
    case .wait:
      return await withUnsafeContinuation { continuation in
        let ready = TreeLock.withLock { () -> View? in
          if let view = node._view, case .loaded = node._viewLoad { return view }
          if case .loading(var waiters) = node._viewLoad {
            waiters.append(continuation)
            node._viewLoad = .loading(waiters)
          }
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    case .load:
      let view: View
      if let context {
        view = await context.runHook { await self.loadView() }
      } else {
        view = await self.loadView()
      }
      TreeLock.withLock {
        view._owner = self
        node._view = view
      }
      await deliver(.viewDidLoad, in: context)
      let waiters = TreeLock.withLock { () -> [UnsafeContinuation<View, Never>] in
        defer { node._viewLoad = .loaded }
        if case .loading(let waiters) = node._viewLoad { return waiters }
        return []
      }
      for waiter in waiters { waiter.resume(returning: view) }
      return view
    }
  }
}

private enum ViewLoadStep { case ready(View), wait, load }
