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
/// spins, yielding its thread now and then, and only a waiter that has
/// waited far longer than any critical section lasts goes to sleep (its
/// holder was preempted: more threads than cores). So in the common case a
/// release never pays for a wake-up, and a thread that waits long burns no
/// CPU.
///
/// Why not a mutex: the link lock is taken a few dozen times per push+pop by
/// every tree in the process. A pthread mutex whose waiter went to sleep
/// stays in its contended state, and from then on every release is a futex
/// wake: two trees on two cores had less throughput than one
/// (BENCHMARKS.md, "What limits the figures that miss").
///
/// Only for sections that run no user code, never suspend and never wait
/// for anything. Thread Sanitizer sees the acquire and release of the flag
/// and the parking mutex and condition.
///
/// On Apple platforms it is an `os_unfair_lock`, which donates the waiter's
/// priority to the holder (a spinning waiter could starve a holder of lower
/// quality of service); on Windows an `SRWLOCK`.
struct SpinYieldLock: ~Copyable, @unchecked Sendable {
  #if canImport(Darwin)
    private let unfair: UnsafeMutablePointer<os_unfair_lock>

    init(spinsBeforeYield: Int = 2_000, yieldsBeforeSleeping: Int = 8) {
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

    init(spinsBeforeYield: Int = 2_000, yieldsBeforeSleeping: Int = 8) {
      srw = .allocate(capacity: 1)
      InitializeSRWLock(srw)
    }

    deinit { srw.deallocate() }

    @inline(__always)
    func lock() { AcquireSRWLockExclusive(srw) }

    @inline(__always)
    func unlock() { ReleaseSRWLockExclusive(srw) }
  #else
    private let held = Atomic<Bool>(false)
    /// Waiters asleep (or about to sleep) on `wakeup`.
    private let sleepers = Atomic<Int>(0)
    private let parking: UnsafeMutablePointer<pthread_mutex_t>
    private let wakeup: UnsafeMutablePointer<pthread_cond_t>
    /// Reads of the flag between two yields: a few microseconds, longer than
    /// a critical section, far shorter than a scheduler time slice.
    private let spinsBeforeYield: Int
    private let yieldsBeforeSleeping: Int

    /// The defaults suit the link lock; tests make waiters sleep at once.
    init(spinsBeforeYield: Int = 2_000, yieldsBeforeSleeping: Int = 8) {
      self.spinsBeforeYield = spinsBeforeYield
      self.yieldsBeforeSleeping = yieldsBeforeSleeping
      parking = .allocate(capacity: 1)
      parking.initialize(to: pthread_mutex_t())
      pthread_mutex_init(parking, nil)
      wakeup = .allocate(capacity: 1)
      wakeup.initialize(to: pthread_cond_t())
      pthread_cond_init(wakeup, nil)
    }

    deinit {
      pthread_cond_destroy(wakeup)
      pthread_mutex_destroy(parking)
      wakeup.deallocate()
      parking.deallocate()
    }

    @inline(__always)
    func lock() {
      if !held.exchange(true, ordering: .acquiring) { return }
      lockContended()
    }

    /// Sequentially consistent, with the waiter's count of sleepers and its
    /// last try (`park()`): either the waiter's try sees the flag cleared, or
    /// this release sees the sleeper and wakes it.
    @inline(__always)
    func unlock() {
      held.store(false, ordering: .sequentiallyConsistent)
      if sleepers.load(ordering: .sequentiallyConsistent) > 0 { wakeOne() }
    }

    /// Test-and-test-and-set: waiters read the flag (no write, so no cache
    /// line ping-pong while it is held) and try to take it when it clears;
    /// every few microseconds they yield the thread, and after a few yields
    /// they sleep.
    @inline(never)
    private func lockContended() {
      for _ in 0..<yieldsBeforeSleeping {
        for _ in 0..<spinsBeforeYield {
          if !held.load(ordering: .relaxed), !held.exchange(true, ordering: .acquiring) { return }
        }
        _ = sched_yield()
      }
      park()
    }

    private func park() {
      pthread_mutex_lock(parking)
      sleepers.add(1, ordering: .sequentiallyConsistent)
      while held.exchange(true, ordering: .sequentiallyConsistent) {
        pthread_cond_wait(wakeup, parking)
      }
      sleepers.subtract(1, ordering: .sequentiallyConsistent)
      pthread_mutex_unlock(parking)
    }

    @inline(never)
    private func wakeOne() {
      pthread_mutex_lock(parking)
      pthread_cond_signal(wakeup)
      pthread_mutex_unlock(parking)
    }
  #endif
}
