import ContainmentLocking
import Synchronization

/// One top-level transaction waiting for admission.
///
/// Its state lives here, not in the waiting frame, so that nothing but the
/// resume value crosses from the resuming thread to the resumed task. The
/// state has a leaf lock of its own, taken inside link sections: the waiter
/// is registered with a slot of whichever tree it waits for, and its
/// cancellation handler runs on another thread holding no link lock.
final class ExclusionWaiter: Sendable {
  struct State {
    var continuation: UnsafeContinuation<ExclusionStep, Never>?
    /// The slot it is registered with, while registered; that slot's link
    /// domain guards its entry in the slot's waiters.
    var slot: HierarchySlot?
    var isCancelled = false
    /// True while it has marked its own slot `pending` (waiting for
    /// descendants).
    ///
    /// Only the waiting task changes it.
    var isPending = false
  }
  let state = Locked(State())
  /// Keeps its tree on the slow path while it is pending.
  let mark = TreeBusyMark(governor: nil)

  var isCancelled: Bool { state.withLock { $0.isCancelled } }
  var isPending: Bool { state.withLock { $0.isPending } }
}

extension ExclusionWaiter {
  /// Under the lock of `slot`'s domain: registers it there, unless it was
  /// cancelled (then returns false, registering nothing).
  ///
  /// Appends to `observed` the test observers this satisfies, to be resumed
  /// after the lock.
  func register(
    _ held: LinkSection, _ continuation: UnsafeContinuation<ExclusionStep, Never>, with slot: HierarchySlot,
    observed: inout [UnsafeContinuation<Void, Never>]
  ) -> Bool {
    // Checked with the registration, under the waiter's lock: a
    // cancellation either comes first and is seen here, or finds the waiter
    // registered and unregisters it.
    let registered = state.withLock { state in
      guard !state.isCancelled else { return false }
      state.continuation = continuation
      state.slot = slot
      return true
    }
    guard registered else { return false }
    slot[held].waiters.append(self)
    observed += slot[held].waiterObservers.takeSatisfied(by: slot[held].waiters.count)
    return true
  }

  /// Under the lock of the slot's domain (see ``HierarchySlot/wakeAll(_:)``):
  /// forgets its registration, returning its continuation.
  func woken(_ held: LinkSection) -> UnsafeContinuation<ExclusionStep, Never>? {
    state.withLock { state in
      state.slot = nil
      defer { state.continuation = nil }
      return state.continuation
    }
  }

  /// Under the link lock: marks (or unmarks) this waiter pending on its own
  /// slot, counting it in its tree's `treeMarks` meanwhile, so that new
  /// top-level transactions below take the slow path and wait behind it.
  ///
  /// Unmarking needs the domains of every tree its mark is in. Returns the
  /// waiters of trees this leaves idle (see
  /// ``TreeBusyMark/removeFromTrees()``), to be resumed after the lock.
  @discardableResult
  func setPending(_ held: LinkSection, _ pending: Bool, on slot: HierarchySlot, tree: HierarchySlot? = nil)
    -> [UnsafeContinuation<ExclusionStep, Never>]
  {
    state.withLock { $0.isPending = pending }
    if pending {
      slot[held].pending += 1
      if let tree { mark.add(held, to: tree) }
      return []
    }
    slot[held].pending -= 1
    return mark.removeFromTrees(held)
  }

  /// With no lock held (a cancellation handler): marks the waiter cancelled
  /// and, if it is registered with a slot, unregisters it, returning its
  /// continuation.
  ///
  /// A waiter that is not registered sees the mark before it registers again.
  func cancel() -> UnsafeContinuation<ExclusionStep, Never>? {
    enum Outcome {
      case done(UnsafeContinuation<ExclusionStep, Never>?)
      case moved
    }
    while true {
      let registered = state.withLock { state -> HierarchySlot? in
        state.isCancelled = true
        return state.slot
      }
      guard let slot = registered else { return nil }
      let outcome = TreeLock.withLock(slot) { (held: LinkSection) -> Outcome in
        let continuation = state.withLock { state -> UnsafeContinuation<ExclusionStep, Never>?? in
          // Woken and registered elsewhere meanwhile: look again.
          guard state.slot === slot else { return .none }
          state.slot = nil
          defer { state.continuation = nil }
          return .some(state.continuation)
        }
        guard let continuation else { return .moved }
        slot[held].waiters.removeAll { $0 === self }
        return .done(continuation)
      }
      if case .done(let continuation) = outcome { return continuation }
    }
  }
}
