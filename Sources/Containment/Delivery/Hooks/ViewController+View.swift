import ContainmentLocking
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
    let step = TreeLock.withLock(node) { (held: LinkSection) -> ViewLoadStep in
      // Ready only once `viewDidLoad` has returned (C7); until then every
      // reader but the loading task itself (and the hooks it runs) waits.
      if let view = node[held].view, case .loaded = node[held].viewLoad { return .ready(view) }
      if let view = node[held].view, ViewLoading.current.contains(node.id) { return .ready(view) }
      if case .loading = node[held].viewLoad { return .wait }
      node[held].viewLoad = .loading([])
      return .load
    }
    switch step {
    case .ready(let view):
      return view
    case .wait:
      return await withUnsafeContinuation { continuation in
        let (ready, observers) = TreeLock.withLock(node) {
          (held: LinkSection) -> (View?, [UnsafeContinuation<Void, Never>]) in
          if let view = node[held].view, case .loaded = node[held].viewLoad { return (view, []) }
          guard case .loading(var waiters) = node[held].viewLoad else { return (nil, []) }
          waiters.append(continuation)
          node[held].viewLoad = .loading(waiters)
          return (nil, node[held].viewReaderObservers.takeSatisfied(by: waiters.count))
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
      TreeLock.withLock(node, view) { held in
        TreeLock.join(held, view, into: node.linkDomain)
        view[held].owner = self
        node[held].view = view
      }
      var loading = ViewLoading.current
      loading.insert(node.id)
      await ViewLoading.$current.withValue(loading) { await deliver(.viewDidLoad, in: context) }
      let (waiters, observers) = TreeLock.withLock(node) {
        (held: LinkSection) -> ([UnsafeContinuation<View, Never>], [UnsafeContinuation<Void, Never>]) in
        defer { node[held].viewLoad = .loaded }
        let observers = node[held].viewReaderObservers.takeSatisfied(by: .max)
        if case .loading(let waiters) = node[held].viewLoad { return (waiters, observers) }
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
