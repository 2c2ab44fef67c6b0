import ContainmentLocking

/// The pure state of one container's FIFO transaction queue (R1–R3).
///
/// The queue has at most one *holder*: the task currently running a
/// transaction. Everyone else is an entry in `pending`, in request order:
/// - a **waiter** is a task suspended in `acquire()`; when its turn comes the
///   releasing task hands the queue over and resumes it;
/// - a **job** is a request with no task waiting on it (made from inside a
///   hook, R2); the releasing task runs it itself before handing over.
///
/// Every method is called under the queue's lock and returns an action that
/// the storage performs after the lock is released (no continuation is resumed
/// while a lock is held).
struct TransactionQueueStateMachine<Continuation, Job> {
  enum Entry {
    case waiter(id: UInt64, continuation: Continuation)
    case job(Job)
  }

  private(set) var isHeld = false
  private var pending: [Entry] = []
  private var head = 0
  /// The waiters' ids: a waiter cancelled before it registered its
  /// continuation (the cancellation handler ran first) fails its late
  /// registration at once.
  private var tickets = WaiterTickets()

  var pendingCount: Int { pending.count - head }

  mutating func makeWaiterID() -> UInt64 { tickets.issue() }

  enum AcquireAction {
    /// The queue was free; the caller holds it now.
    case granted
    /// The caller's continuation was stored; it is resumed when its turn comes.
    case suspended
    /// Cancelled before registration: resume the continuation with `CancellationError`.
    case cancelled
  }

  mutating func acquire(id: UInt64, continuation: Continuation) -> AcquireAction {
    guard tickets.arrive(id) else { return .cancelled }
    if !isHeld {
      precondition(pendingCount == 0, "a free queue has nothing pending")
      isHeld = true
      return .granted
    }
    pending.append(.waiter(id: id, continuation: continuation))
    return .suspended
  }

  /// Non-blocking acquire: succeeds only if the queue is free.
  mutating func tryAcquire() -> Bool {
    guard !isHeld else { return false }
    isHeld = true
    return true
  }

  /// Removes a waiter whose task was cancelled.
  ///
  /// Returns its continuation if it was still waiting (resume it with
  /// `CancellationError`), or nil if it was already granted (then the
  /// cancellation is the transaction's to observe).
  mutating func cancel(id: UInt64) -> Continuation? {
    for index in head..<pending.count {
      if case .waiter(let waiterID, let continuation) = pending[index], waiterID == id {
        pending.remove(at: index)
        return continuation
      }
    }
    // Not registered yet: leave a placeholder so the late registration fails.
    // Already granted: the transaction itself observes the cancellation.
    tickets.cancelBeforeArrival(id)
    return nil
  }

  enum PostAction {
    /// The queue was free: the poster holds it now and must drain it.
    case drainNow
    /// Stored behind the holder; the holder runs it when it releases.
    case queued
  }

  mutating func post(_ job: Job) -> PostAction {
    pending.append(.job(job))
    if isHeld { return .queued }
    isHeld = true
    return .drainNow
  }

  enum ReleaseAction {
    /// Run this job while still holding the queue, then release again.
    case run(Job)
    /// Ownership passes to this waiter: resume it.
    case handOff(Continuation)
    /// Nothing pending; the queue is free.
    case idle
  }

  /// Frees the queue if nothing is pending (as ``release()`` returning
  /// `.idle` does) and returns true; otherwise changes nothing.
  mutating func releaseIfIdle() -> Bool {
    precondition(isHeld, "release without holding the queue")
    guard head >= pending.count else { return false }
    isHeld = false
    pending.removeAll(keepingCapacity: true)
    head = 0
    return true
  }

  mutating func release() -> ReleaseAction {
    if releaseIfIdle() { return .idle }
    let entry = pending[head]
    head += 1
    if head > 32 && head * 2 > pending.count {
      pending.removeFirst(head)
      head = 0
    }
    switch entry {
    case .job(let job): return .run(job)
    case .waiter(_, let continuation): return .handOff(continuation)
    }
  }
}
