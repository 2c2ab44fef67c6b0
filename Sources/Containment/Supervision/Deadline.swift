/// Waiting for work with a time limit on a tree's injected clock: the
/// deadline of a hook (V1) and the graceful and abandon steps of a teardown
/// (V3).
enum Deadline {
  /// Waits for `work` at most `limit` on `environment`'s clock (nil: no
  /// limit); true if it finished in time. Neither waiter holds a lock.
  static func finishes(
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
