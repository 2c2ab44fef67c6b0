import Synchronization

/// The one lock that guards the *links* of every tree: parent/child links,
/// superview/subview links, window attachment, appearance state, and the
/// in-flight reservations of moving children.
///
/// Why one lock: cycle checks, "does this child already have a parent", moves
/// between containers and invariant checks must read several controllers'
/// links at one instant. Reading actor state one actor at a time is racy; a
/// single short critical section is not.
///
/// No critical section waits for anything, so a waiter retries for a few
/// microseconds before it sleeps (`Locked.withLock(retrying:)`).
///
/// Rules (CONCURRENCY.md, "The link lock"):
/// - held only for synchronous bookkeeping, never across a hook call, an
///   `await`, a continuation resume, or an event delivery;
/// - never nested (no other lock is taken while it is held, except
///   leaf locks that never call out);
/// - every `nonisolated(unsafe)`-style field documented as "guarded by
///   `TreeLock`" is read and written only inside `TreeLock.withLock`.
enum TreeLock {
  // A one-byte payload, not Void: a zero-sized stored value shares its address
  // with the mutex pointer, and TSan then reports the inout access to it.
  private static let mutex = Locked<UInt8>(0)
  /// Tries before a contended waiter sleeps: a few microseconds.
  private static let triesBeforeSleeping = 100
  /// Link updates handed over by `deinit`s (see ``afterRelease(_:)``).
  private static let released = Locked<[@Sendable () -> Void]>([])
  private static let releasedCount = Atomic<Int>(0)

  /// Runs `body` with the link lock held. `body` must not suspend, call a hook,
  /// resume a continuation, or deliver an event. Link updates handed over by
  /// `deinit`s run first, so `body` never sees links of a released object.
  @inline(__always)
  static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try mutex.withLock(retrying: triesBeforeSleeping) { _ in
      if releasedCount.load(ordering: .acquiring) > 0 { runReleased() }
      return try body()
    }
  }

  /// Hands over a link update a `deinit` must make (a released window takes
  /// its tree off screen; a released container's surviving children become
  /// roots). A `deinit` cannot take the link lock: the last reference may be
  /// dropped by code that holds it. The update runs, under the lock, at the
  /// start of the next critical section on any thread, before anyone can
  /// read the links it fixes. It must not keep the objects it updates alive.
  static func afterRelease(_ update: @escaping @Sendable () -> Void) {
    released.withLock { $0.append(update) }
    releasedCount.add(1, ordering: .releasing)
  }

  private static func runReleased() {
    let updates = released.withLock { updates in
      defer { updates.removeAll() }
      return updates
    }
    releasedCount.subtract(updates.count, ordering: .relaxed)
    for update in updates { update() }
  }
}
