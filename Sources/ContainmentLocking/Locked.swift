/// A value guarded by an OS mutex, in one allocation.
///
/// Why not `Synchronization.Mutex`: on Linux, Thread Sanitizer does not see
/// the happens-before edge of `Mutex`'s futex hand-off and reports races in
/// trivially correct code (a four-task append loop is enough). CI runs every
/// test under TSan, so the runtime uses this small wrapper around
/// `pthread_mutex_t` (SRWLOCK on Windows), which TSan understands.
///
/// Do not use `Locked<Void>`: a zero-sized value shares its address with the
/// mutex and Thread Sanitizer reports the inout access as a race.
///
/// Rules: the closure must not suspend, resume a continuation, call a hook, or
/// take another lock that could be waiting for this one.
///
/// A struct holding one reference: copies share the same lock and value, and
/// a use costs one pointer chase, not two (the lock used to be a class around
/// this storage; on the 10^5-controller appearance every extra object touched
/// per hook is a cache miss).
///
/// `@unchecked Sendable`: the value is reached only inside `withLock`, with
/// the mutex held.
public struct Locked<Value>: @unchecked Sendable {
  @usableFromInline let storage: LockedStorage<Value>

  /// A lock guarding `value`.
  ///
  /// Inlinable, so that it is specialized where it is used: the generic
  /// version copied `value` into the storage through its value witness (a
  /// retain of each of its references, then a release of the original).
  @inlinable
  public init(_ value: Value) {
    storage = LockedStorage.make(value, adaptive: true)
  }

  /// A lock guarding `value` whose mutex never spins by itself (the link
  /// domains' locks, which spin in ``withLock(retrying:_:)``'s way).
  init(_ value: Value, adaptive: Bool) {
    storage = LockedStorage.make(value, adaptive: adaptive)
  }

  /// Whether `self` and `other` are copies of one lock (and value).
  public func isSame(as other: Locked<Value>) -> Bool { storage === other.storage }

  /// Runs `body` with the lock held.
  @inlinable @inline(__always)
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withLock(body)
  }

  /// Runs `body` with the lock held; a contended caller tries again up to
  /// `tries` times, with a growing pause and a thread yield every 16 tries,
  /// before it sleeps in the mutex.
  ///
  /// For a lock whose sections are so short that a waiter should almost never
  /// sleep: once one has, glibc turns every release into a futex wake.
  ///
  /// The release stays `pthread_mutex_unlock` (an opaque call) on purpose:
  /// with an inlined atomic release, Swift's reference-counting optimizer
  /// moves the retain of a value read in `body` past the release
  /// (CONCURRENCY.md, "The link locks").
  @inlinable @inline(__always)
  public func withLock<Result>(retrying tries: Int, _ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withLock(retrying: tries, body)
  }
}

/// The value as the header, the mutex as the single element: one allocation.
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<Value, PlatformMutex> {
  @inlinable static func make(_ value: Value, adaptive: Bool) -> LockedStorage {
    let storage = create(minimumCapacity: 1) { _ in value }
    storage.withUnsafeMutablePointerToElements { mutex in initializeMutex(mutex, adaptive: adaptive) }
    // `create` returns the base class type; the dynamic type is this subclass.
    return unsafeDowncast(storage, to: LockedStorage.self)
  }

  deinit {
    // ManagedBuffer destroys the header (the value) itself.
    withUnsafeMutablePointerToElements { mutex in destroyMutex(mutex) }
  }

  @inlinable @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try withUnsafeMutablePointers { value, mutex in
      lockMutex(mutex)
      defer { unlockMutex(mutex) }
      return try body(&value.pointee)
    }
  }

  @inlinable @inline(__always)
  func withLock<Result>(retrying tries: Int, _ body: (inout Value) throws -> Result) rethrows -> Result {
    try withUnsafeMutablePointers { value, mutex in
      if !tryLockMutex(mutex) { lockContended(mutex, tries: tries) }
      defer { unlockMutex(mutex) }
      return try body(&value.pointee)
    }
  }

  // Lock and unlock apart from a section, for the link domains' locks,
  // which a section takes several of in index order (``LinkDomainTable``).

  @inlinable @inline(__always)
  func lock(retrying tries: Int) {
    withUnsafeMutablePointerToElements { mutex in
      if !tryLockMutex(mutex) { lockContended(mutex, tries: tries) }
    }
  }

  @inlinable @inline(__always)
  func tryLock() -> Bool {
    withUnsafeMutablePointerToElements { mutex in tryLockMutex(mutex) }
  }

  @inlinable @inline(__always)
  func unlock() {
    withUnsafeMutablePointerToElements { mutex in unlockMutex(mutex) }
  }

  /// Runs `body` on the value; the caller holds the lock (or, for
  /// ``LinkDomainTable/isHeldByCurrentThread(_:)``, only compares it).
  @inlinable @inline(__always)
  func withValueOfHolder<Result>(_ body: (inout Value) -> Result) -> Result {
    withUnsafeMutablePointerToHeader { value in body(&value.pointee) }
  }
}
