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

/// A value guarded by an OS mutex.
///
/// Why not `Synchronization.Mutex`: on Linux, Thread Sanitizer does not see
/// the happens-before edge of `Mutex`'s futex hand-off and reports races in
/// trivially correct code (a four-task append loop is enough). CI runs every
/// test under TSan, so the runtime uses this small wrapper around
/// `pthread_mutex_t` (SRWLOCK on Windows), which TSan understands.
///
/// Do not use `Locked<Void>`: the zero-sized value shares its address with the
/// mutex pointer and Thread Sanitizer reports the inout access as a race.
///
/// Rules: the closure must not suspend, resume a continuation, call a hook, or
/// take another lock that could be waiting for this one.
package final class Locked<Value>: @unchecked Sendable {
  #if os(Windows)
  private let mutex: UnsafeMutablePointer<SRWLOCK>
  #else
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  #endif
  private var value: Value

  package init(_ value: Value) {
    self.value = value
    #if os(Windows)
    mutex = .allocate(capacity: 1)
    InitializeSRWLock(mutex)
    #else
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    #endif
  }

  deinit {
    #if !os(Windows)
    pthread_mutex_destroy(mutex)
    #endif
    mutex.deallocate()
  }

  /// Runs `body` with the lock held.
  @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    #if os(Windows)
    AcquireSRWLockExclusive(mutex)
    defer { ReleaseSRWLockExclusive(mutex) }
    #else
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    #endif
    return try body(&value)
  }
}
