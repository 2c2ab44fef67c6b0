import Synchronization

/// Deliberate faults, for proving that the stress harness finds a real bug
/// when one is planted.
///
/// Off unless a harness turns them on; never used by the runtime itself.
package enum FaultInjection {
  private static let skipQueueFlag = Atomic<Bool>(false)

  /// When true, requests from outside a transaction skip their container's
  /// FIFO queue and run at once, interleaving with whatever else runs there:
  /// exactly the bug R1 forbids.
  package static var skipsQueue: Bool {
    get { skipQueueFlag.load(ordering: .relaxed) }
    set { skipQueueFlag.store(newValue, ordering: .relaxed) }
  }
}
