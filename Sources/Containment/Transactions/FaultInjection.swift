import Synchronization

/// Deliberate faults, for proving that the stress harness catches real bugs
/// when one is planted. Off unless the harness turns them on; read only on
/// the contended path of a request, so users do not pay for them.
package enum FaultInjection {
  private static let skipQueueFlag = Atomic<Bool>(false)

  /// When true, requests from outside a transaction that find their
  /// container's FIFO queue held run at once anyway, interleaving with the
  /// transaction there: exactly the bug R1 forbids.
  package static var skipsQueue: Bool {
    get { skipQueueFlag.load(ordering: .relaxed) }
    set { skipQueueFlag.store(newValue, ordering: .relaxed) }
  }
}
