import ContainmentLocking
/// One supervised call into user code while it runs: what ends the wait for
/// it, and its stall reports.
///
/// The wait ends when the code returns, when its *own time* passes the
/// environment's hook deadline (V1), or when a teardown's escalation
/// abandons it (V3). Own time is the time since the call began, less the
/// time it spent suspended in calls the runtime made into other user code
/// on its behalf (a scope's body delivering hooks to the children it adds):
/// only the controller whose own code is late is faulted. A stall interval
/// (V6) reports the call each time its own time passes another interval.
///
/// All times are read on the tree's clock. The watch's state is under its
/// own lock; the one waiter is resumed outside it.
final class CallWatch: Sendable {
  enum Outcome: Sendable {
    /// The code returned.
    case returned
    /// Its own time passed the deadline.
    case timedOut(Duration)
    /// A teardown stopped waiting for it.
    case abandoned
  }

  private struct State {
    /// Own time excluded so far: time spent in nested calls.
    var excluded: Duration = .zero
    /// When the current nested call began, while one runs.
    var pausedSince: Duration?
    var pauses = 0
    /// The task running the code, and the tasks timing it (cancelled once
    /// the wait is over, so that no timer outlives it).
    var cancelWork: (@Sendable () -> Void)?
    var timers: [Task<Void, Never>] = []
  }

  let call: UserCall
  let environment: ContainmentEnvironment
  /// The transaction the call runs in, if any: its events carry its id.
  let transaction: TransactionID?
  private let start: Duration
  private let state = Locked(State())
  private let ending = OneShot<Outcome>()

  init(_ call: UserCall, environment: ContainmentEnvironment, transaction: TransactionID?) {
    self.call = call
    self.environment = environment
    self.transaction = transaction
    self.start = environment.elapsed()
  }

  /// The call's own time so far.
  var ownTime: Duration {
    let now = environment.elapsed()
    return state.withLock { state in
      let paused = state.pausedSince.map { now - $0 } ?? .zero
      return now - start - state.excluded - paused
    }
  }

  /// A nested call into other user code begins: its time is not this call's.
  func pause() {
    let now = environment.elapsed()
    state.withLock { state in
      if state.pauses == 0 { state.pausedSince = now }
      state.pauses += 1
    }
  }

  /// The nested call that ``pause()`` announced has returned.
  func resume() {
    let now = environment.elapsed()
    state.withLock { state in
      state.pauses -= 1
      if state.pauses == 0, let since = state.pausedSince {
        state.excluded += now - since
        state.pausedSince = nil
      }
    }
  }

  /// Starts the deadline and stall timer, if the environment asks for one,
  /// for the code running in `work`.
  func start<Value>(_ work: Task<Value, Never>) {
    let deadline = environment.hookDeadline
    let stall = environment.stallWarning
    let timer: Task<Void, Never>? =
      deadline == nil && stall == nil
      ? nil
      : Task.detached { [self] in await self.time(deadline: deadline, stall: stall) }
    state.withLock { state in
      state.cancelWork = { work.cancel() }
      if let timer { state.timers.append(timer) }
    }
    if ending.isResolved { timer?.cancel() }
  }

  /// A teardown began: cancels the code after `policy.graceful` of its own
  /// time and stops waiting for it after `policy.abandonAfter` more (nil:
  /// never).
  ///
  /// Own time, as for the deadline: a scope body that only waits for a child's
  /// hung hook is not abandoned for it (the child's call is).
  func escalate(_ policy: TeardownPolicy) {
    guard let graceful = policy.graceful else { return }
    let base = ownTime
    let escalation = Task.detached { [self] in
      guard await reach(base + graceful) else { return }
      cancelWork()
      guard let abandonAfter = policy.abandonAfter, await reach(base + graceful + abandonAfter) else { return }
      resolve(.abandoned)
    }
    state.withLock { $0.timers.append(escalation) }
    if ending.isResolved { escalation.cancel() }
  }

  /// Cancels the task running the code (it sees `Task.isCancelled`).
  func cancelWork() {
    state.withLock { $0.cancelWork }?()
  }

  /// Ends the wait with `outcome`, unless it has ended already; the timers
  /// stop.
  func resolve(_ outcome: Outcome) {
    guard ending.resolve(outcome) else { return }
    let timers = state.withLock { state in
      defer { state.timers = [] }
      return state.timers
    }
    for timer in timers { timer.cancel() }
  }

  /// Suspends until the wait ends (at once if it has).
  ///
  /// One waiter.
  func outcome() async -> Outcome { await ending.value() }

  private var isResolved: Bool { ending.isResolved }

  /// Sleeps on the tree's clock until the call's own time reaches `target`;
  /// false if the wait ended first (or the sleep was cancelled).
  private func reach(_ target: Duration) async -> Bool {
    while !isResolved {
      let own = ownTime
      if own >= target { return true }
      guard (try? await environment.sleep(for: target - own)) != nil else { return false }
    }
    return false
  }

  /// Sleeps on the tree's clock until the call's own time reaches its next
  /// stall report or its deadline; reports, or ends the wait, then goes on.
  ///
  /// Cancelled when the wait ends.
  private func time(deadline: Duration?, stall: Duration?) async {
    var nextStall = stall
    while !isResolved {
      let own = ownTime
      if let deadline, own >= deadline {
        resolve(.timedOut(deadline))
        return
      }
      if let report = nextStall, let interval = stall, own >= report {
        call.owner.node.emit(.hookStalled(hook: call.name, after: report), transaction: transaction)
        nextStall = report + interval
        continue
      }
      let target = [deadline, nextStall].compactMap { $0 }.min() ?? own
      guard (try? await environment.sleep(for: target - own)) != nil else { return }
    }
  }
}
