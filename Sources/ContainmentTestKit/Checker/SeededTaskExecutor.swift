import Containment
import ContainmentLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A task executor that runs every job on one thread and picks the next job
/// at random from the ones ready, with a seeded generator: the order in which
/// concurrent tasks (and the default actors they call, which run on their
/// task's preferred executor) take their steps is a function of the seed.
///
/// Code that runs only here, calls only default actors, and waits only on
/// what runs here (a ``ManualClock`` advanced by a task here, the runtime's
/// queues) therefore interleaves the same way every time: what
/// ``Interleaving/seeded(_:)`` reproduces. A job enqueued from another
/// thread (the first one, or one resumed by work outside) joins the ready
/// set when it arrives, so its place depends on timing.
///
/// The thread is started when work arrives and ends when none is left.
/// Continuations are never resumed under the lock.
final class SeededTaskExecutor: TaskExecutor, Sendable {
  private struct State {
    var jobs: [UnownedJob] = []
    var isRunning = false
    var generator: SplitMix64
  }
  private let state: Locked<State>

  init(seed: UInt64) {
    state = Locked(State(generator: SplitMix64(seed: seed)))
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let starts = state.withLock { state -> Bool in
      state.jobs.append(job)
      defer { state.isRunning = true }
      return !state.isRunning
    }
    if starts { startThread() }
  }

  /// Runs jobs, each picked at random from the ready ones, until none is left.
  private func run() {
    while true {
      let next = state.withLock { state -> UnownedJob? in
        guard !state.jobs.isEmpty else {
          state.isRunning = false
          return nil
        }
        let index = state.generator.below(state.jobs.count)
        state.jobs.swapAt(index, state.jobs.count - 1)
        return state.jobs.removeLast()
      }
      guard let next else { return }
      next.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  private func startThread() {
    let context = Unmanaged.passRetained(self).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let created = pthread_create(
      &thread, nil,
      { context in
        #if canImport(Darwin)
          let executor = Unmanaged<SeededTaskExecutor>.fromOpaque(context).takeRetainedValue()
        #else
          guard let context else { return nil }
          let executor = Unmanaged<SeededTaskExecutor>.fromOpaque(context).takeRetainedValue()
        #endif
        executor.run()
        return nil
      }, context)
    precondition(created == 0, "SeededTaskExecutor could not start a thread (\(created))")
    #if canImport(Darwin)
      if let thread { pthread_detach(thread) }
    #else
      pthread_detach(thread)
    #endif
  }
}
