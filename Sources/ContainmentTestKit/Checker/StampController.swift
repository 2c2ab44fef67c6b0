import Containment

/// A controller in no tree whose empty transactions read the runtime's
/// transaction counter: ids grow with creation, so an id taken before a
/// request and one taken after it bound the ids of every transaction the
/// request started (R1, E3).
actor StampController: ViewController {
  nonisolated let node = ControllerNode(name: "checker.stamp")

  /// A transaction id later than every one created before this call, or nil
  /// if the calling task is cancelled.
  nonisolated func now() async -> TransactionID? {
    do {
      return try await withTransaction { _ in }.id
    } catch {
      return nil
    }
  }
}
