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

/// A lock for critical sections that are short and never block: a waiter
/// retries for a few microseconds, yielding its thread now and then, before
/// it sleeps in the OS lock. In the common case a waiter never sleeps, so a
/// release never pays for a wake-up; a waiter whose holder was preempted
/// (more threads than cores) sleeps and burns no CPU.
///
/// Why not a plain mutex: the link lock is taken a few dozen times per
/// push+pop by every tree in the process. A pthread mutex (even glibc's
/// adaptive one) puts a contended waiter to sleep almost at once, and once a
/// waiter has slept every release is a futex wake: two trees on two cores
/// had less throughput than one (BENCHMARKS.md, "What limits the figures
/// that miss").
///
/// Why an OS lock underneath rather than an `Atomic` flag: the release must
/// be a call the optimizer cannot see through. Swift's reference-counting
/// optimizer moves a retain of a value read inside the section past an
/// inlined atomic store, so `withLock { node._children }` retained the
/// array after the release, when another thread could already have replaced
/// and freed it (a crash the stress harness found). A call into the C
/// library may release anything, so no retain moves past it.
///
/// Only for sections that run no user code, never suspend and never wait
/// for anything.
struct SpinYieldLock: ~Copyable, @unchecked Sendable {
  #if canImport(Darwin)
    private let unfair: UnsafeMutablePointer<os_unfair_lock>

    /// `os_unfair_lock` spins briefly itself and donates the waiter's
    /// priority to the holder (a spinning waiter could starve a holder of
    /// lower quality of service).
    init(triesBeforeSleeping: Int = 0) {
      unfair = .allocate(capacity: 1)
      unfair.initialize(to: os_unfair_lock())
    }

    deinit { unfair.deallocate() }

    @inline(__always)
    func lock() { os_unfair_lock_lock(unfair) }

    @inline(__always)
    func unlock() { os_unfair_lock_unlock(unfair) }
  #elseif os(Windows)
    private let srw: UnsafeMutablePointer<SRWLOCK>

    init(triesBeforeSleeping: Int = 0) {
      srw = .allocate(capacity: 1)
      InitializeSRWLock(srw)
    }

    deinit { srw.deallocate() }

    @inline(__always)
    func lock() { AcquireSRWLockExclusive(srw) }

    @inline(__always)
    func unlock() { ReleaseSRWLockExclusive(srw) }
  #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let triesBeforeSleeping: Int
    /// Read (never written) between tries: a pause that touches no shared
    /// cache line the holder writes.
    private let pause = Atomic<Int>(0)

    /// The default suits the link lock (a few microseconds of tries); tests
    /// make waiters sleep at once.
    init(triesBeforeSleeping: Int = 100) {
      self.triesBeforeSleeping = triesBeforeSleeping
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    @inline(__always)
    func lock() {
      if pthread_mutex_trylock(mutex) != 0 { lockContended() }
    }

    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Tries again with a growing pause between tries (so that waiters do not
    /// keep writing the lock's cache line), yields the thread every 16
    /// tries, then sleeps in the mutex.
    @inline(never)
    private func lockContended() {
      var backoff = 1
      for attempt in 0..<triesBeforeSleeping {
        for _ in 0..<backoff { _ = pause.load(ordering: .relaxed) }
        if pthread_mutex_trylock(mutex) == 0 { return }
        backoff = min(backoff * 2, 256)
        if attempt % 16 == 15 { _ = sched_yield() }
      }
      pthread_mutex_lock(mutex)
    }
  #endif
}
