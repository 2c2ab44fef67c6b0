/// A value that the first of several racing parties sets, once; later
/// settings are ignored.
///
/// One waiter may suspend until it is set. The waiter is resumed outside the
/// lock.
public final class OneShot<Value: Sendable>: Sendable {
  private struct State {
    var value: Value?
    var waiter: UnsafeContinuation<Value, Never>?
  }
  private let state = Locked(State())

  /// An unresolved one-shot value.
  public init() {}

  /// Sets the value unless it is set; true if this call set it.
  @discardableResult
  public func resolve(_ value: Value) -> Bool {
    let (set, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<Value, Never>?) in
      guard state.value == nil else { return (false, nil) }
      state.value = value
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume(returning: value)
    return set
  }

  /// Whether the value is set.
  public var isResolved: Bool { state.withLock { $0.value != nil } }

  /// Suspends until the value is set (at once if it is).
  ///
  /// One waiter.
  public func value() async -> Value {
    await withUnsafeContinuation { continuation in
      let ready = state.withLock { state -> Value? in
        if let value = state.value { return value }
        state.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
