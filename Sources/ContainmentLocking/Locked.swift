import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif os(Windows)
  import WinSDK
#endif

#if os(Windows)
  /// The platform's mutex.
  public typealias PlatformMutex = SRWLOCK
#else
  /// The platform's mutex.
  public typealias PlatformMutex = pthread_mutex_t
#endif

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
public struct Locked<Value>: @unchecked Sendable {
  @usableFromInline let storage: LockedStorage<Value>

  /// A lock guarding `value`.
  public init(_ value: Value) {
    storage = LockedStorage.make(value)
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
  /// before it sleeps in the mutex. For a lock whose sections are so short
  /// that a waiter should almost never sleep: once one has, glibc turns
  /// every release into a futex wake.
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

/// Read (never written) between tries of `withLock(retrying:)`: a pause that
/// touches no cache line the holder writes.
private let retryPause = Atomic<Int>(0)

/// The value as the header, the mutex as the single element: one allocation.
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<Value, PlatformMutex> {
  @usableFromInline static func make(_ value: Value) -> LockedStorage {
    let storage = create(minimumCapacity: 1) { _ in value }
    storage.withUnsafeMutablePointerToElements { mutex in
      #if os(Windows)
        InitializeSRWLock(mutex)
      #else
        mutex.initialize(to: pthread_mutex_t())
        #if canImport(Glibc)
          // Adaptive: a contended lock spins briefly before it sleeps in the
          // kernel; every critical section here is short.
          var attributes = pthread_mutexattr_t()
          pthread_mutexattr_init(&attributes)
          pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
          pthread_mutex_init(mutex, &attributes)
          pthread_mutexattr_destroy(&attributes)
        #else
          pthread_mutex_init(mutex, nil)
        #endif
      #endif
    }
    // `create` returns the base class type; the dynamic type is this subclass.
    return unsafeDowncast(storage, to: LockedStorage.self)
  }

  deinit {
    // ManagedBuffer destroys the header (the value) itself.
    #if !os(Windows)
      withUnsafeMutablePointerToElements { mutex in _ = pthread_mutex_destroy(mutex) }
    #endif
  }

  @inlinable @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try withUnsafeMutablePointers { value, mutex in
      #if os(Windows)
        AcquireSRWLockExclusive(mutex)
        defer { ReleaseSRWLockExclusive(mutex) }
      #else
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
      #endif
      return try body(&value.pointee)
    }
  }

  @inlinable @inline(__always)
  func withLock<Result>(retrying tries: Int, _ body: (inout Value) throws -> Result) rethrows -> Result {
    try withUnsafeMutablePointers { value, mutex in
      #if os(Windows)
        if TryAcquireSRWLockExclusive(mutex) == 0 { lockContended(mutex, tries: tries) }
        defer { ReleaseSRWLockExclusive(mutex) }
      #else
        if pthread_mutex_trylock(mutex) != 0 { lockContended(mutex, tries: tries) }
        defer { pthread_mutex_unlock(mutex) }
      #endif
      return try body(&value.pointee)
    }
  }
}

/// Takes a contended mutex: retries up to `tries` times with a growing pause
/// and a thread yield every 16 tries, then sleeps in the mutex.
@usableFromInline @inline(never)
func lockContended(_ mutex: UnsafeMutablePointer<PlatformMutex>, tries: Int) {
  var backoff = 1
  for attempt in 0..<tries {
    for _ in 0..<backoff { _ = retryPause.load(ordering: .relaxed) }
    #if os(Windows)
      if TryAcquireSRWLockExclusive(mutex) != 0 { return }
      if attempt % 16 == 15 { _ = SwitchToThread() }
    #else
      if pthread_mutex_trylock(mutex) == 0 { return }
      if attempt % 16 == 15 { _ = sched_yield() }
    #endif
    backoff = min(backoff * 2, 256)
  }
  #if os(Windows)
    AcquireSRWLockExclusive(mutex)
  #else
    pthread_mutex_lock(mutex)
  #endif
}
