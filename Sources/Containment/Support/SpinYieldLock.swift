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
/// spins, and after a bounded spin gives its thread back to the scheduler
/// and tries again. It never sleeps in the kernel, so its holder never pays
/// a wake-up on release.
///
/// Why not a mutex: the link lock is taken a few dozen times per push+pop by
/// every tree in the process. A pthread mutex whose waiter went to sleep
/// stays in its contended state, and from then on every release is a futex
/// wake: two trees on two cores had less throughput than one
/// (BENCHMARKS.md, "What limits the figures that miss").
///
/// Only for sections that run no user code, never suspend and never wait
/// for anything, so that a waiter only ever waits for a holder that is
/// running (or preempted, which the yield covers). Thread Sanitizer sees
/// the acquire and release of the flag.
///
/// On Apple platforms it is an `os_unfair_lock`, which donates the waiter's
/// priority to the holder; a spinning waiter there could starve a holder of
/// lower quality of service.
struct SpinYieldLock: ~Copyable, @unchecked Sendable {
  #if canImport(Darwin)
    private let unfair: UnsafeMutablePointer<os_unfair_lock>

    init() {
      unfair = .allocate(capacity: 1)
      unfair.initialize(to: os_unfair_lock())
    }

    deinit { unfair.deallocate() }

    @inline(__always)
    func lock() { os_unfair_lock_lock(unfair) }

    @inline(__always)
    func unlock() { os_unfair_lock_unlock(unfair) }
  #else
    private let held = Atomic<Bool>(false)

    init() {}

    @inline(__always)
    func lock() {
      if !held.exchange(true, ordering: .acquiring) { return }
      lockContended()
    }

    @inline(__always)
    func unlock() { held.store(false, ordering: .releasing) }

    /// Test-and-test-and-set: waiters read the flag (no write, so no cache
    /// line ping-pong while it is held) and try to take it when it clears.
    @inline(never)
    private func lockContended() {
      var spins = 0
      repeat {
        while held.load(ordering: .relaxed) {
          spins += 1
          if spins == Self.spinsBeforeYield {
            spins = 0
            Self.yieldThread()
          }
        }
      } while held.exchange(true, ordering: .acquiring)
    }

    /// A few microseconds of reads: longer than a critical section, far
    /// shorter than a scheduler time slice.
    private static var spinsBeforeYield: Int { 2_000 }

    private static func yieldThread() {
      #if os(Windows)
        _ = SwitchToThread()
      #else
        _ = sched_yield()
      #endif
    }
  #endif
}
