@testable import Containment
@testable import ContainmentLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A task executor that tells a test when it has nothing left to run: once a
/// task started on it (`Task(executorPreference:)`) has run up to a
/// suspension nobody has resumed (a request waiting for its turn in a queue,
/// a subscriber waiting in `next()`), ``idle()`` returns.
///
/// No polling and no yielding: the thread that runs the jobs wakes the test
/// when its queue is empty.
///
/// The runtime's request and subscription paths are nonisolated (and default
/// actors run on a task's preferred executor), so a task started here stays
/// here until it really suspends.
///
/// Jobs run one at a time, in the order they were enqueued, on a thread the
/// executor starts when work arrives and that ends when it runs out.
/// Continuations are resumed outside the lock.
final class IdleExecutor: TaskExecutor, Sendable {
  private struct State {
    var jobs: [UnownedJob] = []
    var isRunning = false
    var watchers: [UnsafeContinuation<Void, Never>] = []
  }
  private let state = Locked(State())

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let starts = state.withLock { state -> Bool in
      state.jobs.append(job)
      defer { state.isRunning = true }
      return !state.isRunning
    }
    if starts { startThread() }
  }

  /// Returns once every job enqueued so far, and every job those enqueued
  /// while running here, has run: each task on this executor has finished or
  /// is suspended waiting for something outside it.
  func idle() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if !state.isRunning { return true }
        state.watchers.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private enum Step {
    case run(UnownedJob)
    case stop(wake: [UnsafeContinuation<Void, Never>])
  }

  /// Runs jobs until there are none, then wakes the watchers.
  private func run() {
    while true {
      let step = state.withLock { state -> Step in
        guard state.jobs.isEmpty else { return .run(state.jobs.removeFirst()) }
        state.isRunning = false
        defer { state.watchers.removeAll() }
        return .stop(wake: state.watchers)
      }
      switch step {
      case .run(let job):
        job.runSynchronously(on: asUnownedTaskExecutor())
      case .stop(let watchers):
        for watcher in watchers { watcher.resume() }
        return
      }
    }
  }

  private func startThread() {
    let context = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { context in
        guard let context else { return nil }
        let executor = Unmanaged<IdleExecutor>.fromOpaque(context).takeRetainedValue()
        executor.run()
        return nil
      }, context)
    precondition(created == 0, "IdleExecutor could not start a thread (\(created))")
    pthread_detach(thread)
  }
}
