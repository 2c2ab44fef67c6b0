/// The package's test seams that wait for a count to reach a value (requests
/// queued, view readers waiting, transactions waiting for admission).
///
/// Kept inside the state its lock guards; the continuations it hands back are
/// resumed after that lock is released.
public struct CountObservers {
  /// No observers.
  public init() {}

  private var observers: [(count: Int, continuation: UnsafeContinuation<Void, Never>)] = []

  /// Registers a waiter for the count to reach `count`.
  public mutating func add(_ count: Int, _ continuation: UnsafeContinuation<Void, Never>) {
    observers.append((count, continuation))
  }

  /// Removes and returns the waiters that `current` satisfies.
  public mutating func takeSatisfied(by current: Int) -> [UnsafeContinuation<Void, Never>] {
    guard !observers.isEmpty else { return [] }
    var satisfied: [UnsafeContinuation<Void, Never>] = []
    observers.removeAll { observer in
      guard observer.count <= current else { return false }
      satisfied.append(observer.continuation)
      return true
    }
    return satisfied
  }
}
