import ContainmentLocking
import Synchronization

/// The lock-protected state machine plus the owner's marker closures.
///
/// Shared by the `Broadcaster` and every subscription, so a subscription can
/// outlive the owner.
final class BroadcasterStorage<Element: Broadcastable>: Sendable {
  typealias StateMachine = BroadcasterStateMachine<Element>

  private let state = Locked(StateMachine())
  /// Elements numbered without the lock while nobody subscribes (the low 56
  /// bits), the latest change of what is reported made with them (a code
  /// of ``Broadcastable/applyUnlockedReport(_:to:)`` in the next 7 bits, 0:
  /// none); the top bit set means "take the lock" (someone subscribes, or
  /// it finished).
  ///
  /// Every locked operation first takes these in and sets the bit, and
  /// clears it at the end if nobody subscribes: an advance is either
  /// counted before a subscription's numbering starts or made under the
  /// lock, never lost; the same holds for the change it reports, and the
  /// latest change is the one that counts.
  private let unlocked = Atomic<UInt64>(0)
  private static var needsLock: UInt64 { 1 << 63 }
  private static var countMask: UInt64 { (1 << 56) - 1 }
  private static var reportShift: UInt64 { 56 }
  private let lostMarker: @Sendable (Int) -> Element
  private let laggedMarker: @Sendable () -> Element

  init(lostMarker: @escaping @Sendable (Int) -> Element, laggedMarker: @escaping @Sendable () -> Element) {
    self.lostMarker = lostMarker
    self.laggedMarker = laggedMarker
  }

  /// Runs `body` on the state machine under its lock, with the advances
  /// made without the lock taken in first.
  private func withMachine<Result>(_ body: (inout StateMachine) -> Result) -> Result {
    state.withLock { machine in
      // With the bit set and nothing advanced, the word cannot change until
      // a locked operation clears the bit: no read-modify-write needed (the
      // common case while someone subscribes).
      if unlocked.load(ordering: .acquiring) != Self.needsLock {
        let word = unlocked.exchange(Self.needsLock, ordering: .acquiringAndReleasing)
        machine.absorbUnlockedAdvances(Int(word & Self.countMask))
        let report = UInt8(truncatingIfNeeded: (word & ~Self.needsLock) >> Self.reportShift)
        if report != 0 { Element.applyUnlockedReport(report, to: &machine.reported) }
      }
      let result = body(&machine)
      if machine.admitsUnlockedAdvance { unlocked.store(0, ordering: .releasing) }
      return result
    }
  }

  var subscriberCount: Int { withMachine { $0.liveSubscriberCount } }
  var isFinished: Bool { withMachine { $0.isFinished } }
  var waitingSubscriberCount: Int { withMachine { $0.waitingSubscriberCount } }
  var loggedCount: Int { withMachine { $0.loggedCount } }

  func subscribe(policy: SubscriberPolicy, initial: (Element.Reported) -> Element?) -> Int {
    withMachine { machine in
      let reported = machine.reported
      return machine.subscribe(policy: policy) { initial(reported) }
    }
  }

  var reported: Element.Reported { withMachine { $0.reported } }

  func updateReported(_ update: (inout Element.Reported) -> Void) {
    withMachine { update(&$0.reported) }
  }

  func yieldIfUnobserved(_ body: (inout Element.Reported) -> Void) -> Bool {
    withMachine { $0.advanceIfUnobserved(body) }
  }

  /// ``yieldIfUnobserved(_:)`` without the lock, for an element that reports
  /// nothing new (`report` 0) or the change of code `report` (1...127): false,
  /// with nothing done, whenever the lock is needed (someone subscribes,
  /// it finished, or a subscription just ended and no locked operation has
  /// run since).
  func advanceWithoutLock(reporting report: UInt8 = 0) -> Bool {
    precondition(report < 128, "a report code has 7 bits")
    var current = unlocked.load(ordering: .relaxed)
    while current & Self.needsLock == 0 {
      var desired = ((current & Self.countMask) &+ 1) & Self.countMask
      desired |= report == 0 ? current & ~Self.countMask : UInt64(report) << Self.reportShift
      let (exchanged, original) = unlocked.compareExchange(
        expected: current, desired: desired, ordering: .relaxed)
      if exchanged { return true }
      current = original
    }
    return false
  }

  func yield(_ make: (Int, inout Element.Reported) -> Element) {
    var handed: Element?
    let action = withMachine { $0.yield(make, handing: &handed) }
    switch action {
    case .none:
      break
    case .resumeOne(let continuation):
      continuation.resume(returning: handed)
    case .resume(let continuations):
      for continuation in continuations { continuation.resume(returning: handed) }
    }
  }

  func yield(contentsOf elements: [Element]) {
    let action = withMachine { $0.yield(contentsOf: elements) }
    switch action {
    case .none:
      break
    case .resume(let resumptions):
      for resumption in resumptions { resumption.continuation.resume(returning: resumption.element) }
    }
  }

  /// `final == nil` is used by the owner's deinit: subscribers end without a final element.
  func finish(final: Element?) {
    let action = withMachine { $0.finish(final: final) }
    switch action {
    case .none:
      break
    case .resume(let continuations, let final):
      for continuation in continuations { continuation.resume(returning: final) }
    }
  }

  /// Removes subscriber `id`, resuming its suspended `next()` with `nil`.
  ///
  /// Idempotent.
  func cancel(id: Int) {
    let action = withMachine { $0.cancel(id: id) }
    switch action {
    case .none:
      break
    case .resume(let continuation):
      continuation.resume(returning: nil)
    }
  }

  /// The next element of subscriber `id`, suspending until one is available.
  ///
  /// Cancellation: the whole call runs inside `withTaskCancellationHandler`. If the task is
  /// cancelled while suspended, the handler removes the subscriber and resumes it with `nil`. If
  /// the task is already cancelled on entry, the handler runs first and removes the subscriber,
  /// so the fast path (and any late continuation registration) finds no subscriber and returns
  /// `nil` at once. Either way the subscription ends.
  func next(id: Int, isolation: isolated (any Actor)?) async -> Element? {
    await withTaskCancellationHandler {
      let action = withMachine { $0.next(id: id) }
      switch action {
      case .deliver(let delivery):
        return materialize(delivery)
      case .suspend:
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
          let action = withMachine { $0.nextSuspended(id: id, continuation: continuation) }
          switch action {
          case .none:
            break
          case .resume(let delivery):
            continuation.resume(returning: materialize(delivery))
          }
        }
      }
    } onCancel: {
      self.cancel(id: id)
    }
  }

  /// Builds the element for a delivery.
  ///
  /// Called outside the lock (it may run the owner's markers).
  private func materialize(_ delivery: StateMachine.Delivery) -> Element? {
    switch delivery {
    case .element(let element): element
    case .lost(let count): lostMarker(count)
    case .lagged: laggedMarker()
    case .end: nil
    }
  }
}
