import ContainmentLocking
/// The supervised calls into user code running in one window's tree, so
/// that the window's teardown reaches them (V3): from the moment a teardown
/// is requested until its stop phase begins, every such call (running then,
/// or starting later, in the transactions queued before the teardown or in
/// its own off-screen phase) is cancelled after the teardown policy's
/// `graceful` and abandoned after its `abandonAfter`.
///
/// The stop hooks have their own escalation (``Teardown``).
///
/// Used only when some environment supervises calls (``Gateway``); its lock
/// is the window's own, shared with nothing outside the tree.
final class RunningCalls: Sendable {
  private struct State {
    var calls: [ObjectIdentifier: CallWatch] = [:]
    /// Set from the teardown's request until its stop phase.
    var escalation: TeardownPolicy?
  }

  private let state = Locked(State())

  init() {}

  /// A call began; it is escalated at once if a teardown is under way.
  func register(_ watch: CallWatch) {
    let escalation = state.withLock { state -> TeardownPolicy? in
      state.calls[ObjectIdentifier(watch)] = watch
      return state.escalation
    }
    if let escalation { watch.escalate(escalation) }
  }

  /// The call ended.
  func remove(_ watch: CallWatch) {
    state.withLock { _ = $0.calls.removeValue(forKey: ObjectIdentifier(watch)) }
  }

  /// A teardown was requested: escalates every running call, and every call
  /// that starts before ``stopEscalating()``.
  ///
  /// A second request changes nothing.
  func beginTeardown(_ policy: TeardownPolicy) {
    guard policy.graceful != nil else { return }
    let running = state.withLock { state -> [CallWatch] in
      guard state.escalation == nil else { return [] }
      state.escalation = policy
      return Array(state.calls.values)
    }
    for watch in running { watch.escalate(policy) }
  }

  /// The teardown reached its stop phase, which has its own escalation.
  func stopEscalating() {
    state.withLock { $0.escalation = nil }
  }
}
