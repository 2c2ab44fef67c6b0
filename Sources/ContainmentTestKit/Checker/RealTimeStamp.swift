import Synchronization

/// A process-wide logical clock for the real-time order of operations: an
/// operation whose end stamp is below another's start stamp finished before
/// the other began, so every sequential explanation must keep them in that
/// order.
enum RealTimeStamp {
  private static let counter = Atomic<UInt64>(0)

  /// A stamp later than every stamp taken before this call returned.
  static func next() -> UInt64 { counter.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue }
}
