import ContainmentLocking
/// Waiting for work with a time limit on a tree's injected clock: the
/// deadline of a hook (V1) and the graceful and abandon steps of a teardown
/// (V3).
enum Deadline {
  /// Waits for `work` at most `limit` on `environment`'s clock (nil: no
  /// limit); true if it finished in time.
  ///
  /// Neither waiter holds a lock.
  static func finishes(
    _ work: Task<Void, Never>, within limit: Duration?, on environment: ContainmentEnvironment
  ) async -> Bool {
    guard let limit else {
      await work.value
      return true
    }
    let first = OneShot<Bool>()
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
