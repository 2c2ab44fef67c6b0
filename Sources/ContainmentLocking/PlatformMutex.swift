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

// The operating system's mutex, for `Locked` and `LinkDomainTable`: the only
// file that knows which platform it runs on.

#if os(Windows)
  /// The platform's mutex.
  public typealias PlatformMutex = SRWLOCK
#else
  /// The platform's mutex.
  public typealias PlatformMutex = pthread_mutex_t
#endif

/// Initializes the mutex at `mutex`; `adaptive`: where the platform offers
/// it (glibc), a contended lock spins briefly before it sleeps in the kernel.
@usableFromInline
func initializeMutex(_ mutex: UnsafeMutablePointer<PlatformMutex>, adaptive: Bool) {
  #if os(Windows)
    InitializeSRWLock(mutex)
  #else
    mutex.initialize(to: PlatformMutex())
    #if canImport(Glibc)
      if adaptive {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        return
      }
    #endif
    pthread_mutex_init(mutex, nil)
  #endif
}

/// Releases what the platform keeps for the mutex at `mutex`.
func destroyMutex(_ mutex: UnsafeMutablePointer<PlatformMutex>) {
  #if !os(Windows)
    _ = pthread_mutex_destroy(mutex)
  #endif
}

/// Takes the mutex, sleeping if it must.
@inlinable @inline(__always)
func lockMutex(_ mutex: UnsafeMutablePointer<PlatformMutex>) {
  #if os(Windows)
    AcquireSRWLockExclusive(mutex)
  #else
    pthread_mutex_lock(mutex)
  #endif
}

/// Takes the mutex if it is free; never waits.
@inlinable @inline(__always)
func tryLockMutex(_ mutex: UnsafeMutablePointer<PlatformMutex>) -> Bool {
  #if os(Windows)
    TryAcquireSRWLockExclusive(mutex) != 0
  #else
    pthread_mutex_trylock(mutex) == 0
  #endif
}

/// Releases the mutex: an opaque call, so that nothing read under the lock
/// is retained after it (CONCURRENCY.md, "The link locks").
@inlinable @inline(__always)
func unlockMutex(_ mutex: UnsafeMutablePointer<PlatformMutex>) {
  #if os(Windows)
    ReleaseSRWLockExclusive(mutex)
  #else
    pthread_mutex_unlock(mutex)
  #endif
}

/// An identifier of the calling thread.
func currentThreadID() -> UInt {
  #if os(Windows)
    UInt(GetCurrentThreadId())
  #elseif canImport(Glibc)
    UInt(pthread_self())  // an integer
  #else
    UInt(bitPattern: pthread_self())  // a pointer (Darwin, Musl) or a signed integer (Android)
  #endif
}

/// Read (never written) between tries of `withLock(retrying:)`: a pause that
/// touches no cache line the holder writes.
private let retryPause = Atomic<Int>(0)

/// Takes a contended mutex: retries up to `tries` times with a growing pause
/// and a thread yield every 16 tries, then sleeps in the mutex.
@usableFromInline @inline(never)
func lockContended(_ mutex: UnsafeMutablePointer<PlatformMutex>, tries: Int) {
  var backoff = 1
  for attempt in 0..<tries {
    for _ in 0..<backoff { _ = retryPause.load(ordering: .relaxed) }
    if tryLockMutex(mutex) { return }
    if attempt % 16 == 15 {
      #if os(Windows)
        _ = SwitchToThread()
      #else
        _ = sched_yield()
      #endif
    }
    backoff = min(backoff * 2, 256)
  }
  lockMutex(mutex)
}
