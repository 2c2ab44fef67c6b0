// What `BroadcasterStateMachine`'s mutations return: which continuations the owner resumes, and
// with what, once its lock is released.

extension BroadcasterStateMachine {
  /// What a subscriber's `next()` produces.
  ///
  /// Markers are described, not built: the storage builds them with the owner's closures once
  /// the lock is released.
  enum Delivery: Sendable {
    case element(Element)
    /// A lost-marker for `count` elements dropped since the subscriber's last delivery.
    case lost(count: Int)
    /// The terminal lagged-marker of a subscriber disconnected by `disconnectOnLag`.
    case lagged
    /// End of the sequence (`nil`).
    case end
  }

  /// One continuation to resume with one element.
  struct Resumption: Sendable {
    let continuation: Continuation
    let element: Element
  }

  /// The subscribers a yield resumes.
  ///
  /// The element they get is handed back beside the action
  /// (``BroadcasterStateMachine/yield(_:handing:)``): an action small enough
  /// to return in registers costs no copy of an element on the common path,
  /// where nobody waits.
  enum YieldAction: Sendable {
    case none
    /// Resume one continuation with the element.
    case resumeOne(Continuation)
    /// Resume every continuation with the element.
    case resume([Continuation])
  }

  enum YieldBatchAction: Sendable {
    case none
    case resume([Resumption])
  }

  enum FinishAction: Sendable {
    case none
    /// Resume every continuation with `final` (which is `nil` when the owner went away).
    case resume([Continuation], final: Element?)
  }

  enum NextAction: Sendable {
    case deliver(Delivery)
    case suspend
  }

  enum NextSuspendedAction: Sendable {
    /// The continuation was stored; a later yield, finish or cancellation resumes it.
    case none
    /// Resume the continuation right away with this delivery.
    case resume(Delivery)
  }

  enum CancelAction: Sendable {
    case none
    /// Resume this continuation with `nil`.
    case resume(Continuation)
  }
}
