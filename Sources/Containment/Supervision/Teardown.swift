/// The stop phase of an ordered teardown (V3), after the tree went off
/// screen: ``ViewController/viewDidTearDown()`` to every controller, children
/// before parents, within the tree's ``TeardownPolicy``; then the streams end.
enum Teardown {
  /// Under the link lock: `root` and everything below it (children, and the
  /// controller it presents, which counts as below its presenter) in stop
  /// order: leaves first, siblings in reverse `children` order, each
  /// controller after everything below it — the reverse of a preorder walk.
  static func _stopOrder(from root: any ViewController) -> [any ViewController] {
    var preorder: [any ViewController] = []
    var stack: [any ViewController] = [root]
    while let next = stack.popLast() {
      preorder.append(next)
      if let presented = next.node._presented { stack.append(presented) }
      stack.append(contentsOf: next.node._children.reversed())
    }
    return preorder.reversed()
  }

  /// Delivers the stop hooks to `controllers` in order (inside `context`'s
  /// transaction if given, so that their requests are nested ones), escalating
  /// as `policy` says, then ends every controller's streams. Returns once the
  /// hooks are done or abandoned. Not affected by the caller's cancellation:
  /// the hooks run in a task of their own.
  static func stop(
    _ controllers: [any ViewController], policy: TeardownPolicy, environment: ContainmentEnvironment,
    context: TransactionContext?
  ) async {
    let abandoned = Locked(false)
    let hooks = Task.detached {
      for controller in controllers {
        if abandoned.withLock({ $0 }) { return }
        await controller.deliver(.viewDidTearDown, in: context)
      }
    }
    if await !finishes(hooks, within: policy.graceful, on: environment) {
      hooks.cancel()
      if await !finishes(hooks, within: policy.abandonAfter, on: environment) {
        abandoned.withLock { $0 = true }
      }
    }
    for controller in controllers { controller.node.finishStreams() }
  }

  /// Waits for `work` at most `limit` on `environment`'s clock (nil: no
  /// limit); true if it finished in time. Neither waiter holds a lock.
  private static func finishes(
    _ work: Task<Void, Never>, within limit: Duration?, on environment: ContainmentEnvironment
  ) async -> Bool {
    guard let limit else {
      await work.value
      return true
    }
    let first = FirstOutcome()
    // If `work` is abandoned, this watcher lives until its hook returns.
    Task.detached {
      await work.value
      first.resolve(true)
    }
    let timer = Task.detached {
      // Cancelled once `work` finished first: nothing left to report.
      guard (try? await environment.sleep(for: limit)) != nil else { return }
      first.resolve(false)
    }
    let finished = await first.value()
    timer.cancel()
    return finished
  }
}

/// A one-shot result that the first of several racing tasks sets; later
/// settings are ignored. The continuation is resumed outside the lock.
private final class FirstOutcome: Sendable {
  private struct State {
    var outcome: Bool?
    var waiter: UnsafeContinuation<Bool, Never>?
  }
  private let state = Locked(State())

  func resolve(_ outcome: Bool) {
    let waiter = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: outcome)
  }

  /// Suspends until an outcome is set (at once if it is). One waiter.
  func value() async -> Bool {
    await withUnsafeContinuation { continuation in
      let ready = state.withLock { state -> Bool? in
        if let outcome = state.outcome { return outcome }
        state.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
