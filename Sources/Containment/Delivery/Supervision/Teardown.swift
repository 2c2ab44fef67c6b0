import ContainmentLocking
/// The stop phase of an ordered teardown (V3), after the tree went off
/// screen: ``ViewController/viewDidTearDown()`` to every controller, children
/// before parents, within the tree's ``TeardownPolicy``; then the streams end.
enum Teardown {
  /// Delivers the stop hooks to `controllers` in order (inside `context`'s
  /// transaction if given, so that their requests are nested ones), escalating
  /// as `policy` says, then ends every controller's streams.
  ///
  /// Returns once the hooks are done or abandoned. Not affected by the caller's
  /// cancellation: the hooks run in a task of their own.
  static func stop(
    _ controllers: [any ViewController], policy: TeardownPolicy, environment: ContainmentEnvironment,
    context: TransactionContext?
  ) async {
    let abandoned = Locked(false)
    let hooks = Task.detached {
      for controller in controllers {
        if abandoned.withLock({ $0 }) { return }
        await controller.deliverStopHook(in: context, treeEnvironment: environment)
      }
    }
    if await !Deadline.finishes(hooks, within: policy.graceful, on: environment) {
      hooks.cancel()
      if await !Deadline.finishes(hooks, within: policy.abandonAfter, on: environment) {
        abandoned.withLock { $0 = true }
      }
    }
    for controller in controllers { controller.node.finishStreams() }
  }
}
