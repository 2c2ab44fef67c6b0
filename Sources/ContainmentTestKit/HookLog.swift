import Containment
import ContainmentLocking

/// An ordered, thread-safe log of lifecycle hooks, shared by several
/// ``RecordingController``s so that a test can assert the *whole* order of
/// hooks across a tree ("A.willMove(P)", "A.viewDidLoad", ...).
///
/// Appends happen inside the hooks, which the runtime calls one at a time per
/// transaction, so the log order is the order the hooks ran.
public final class HookLog: Sendable {
  private let entries = Locked<[String]>([])

  /// An empty log.
  public init() {}

  /// Appends one entry.
  public func append(_ entry: String) { entries.withLock { $0.append(entry) } }

  /// Everything logged so far, in order.
  public var all: [String] { entries.withLock { $0 } }

  /// Returns everything logged so far and empties the log.
  public func take() -> [String] {
    entries.withLock { entries in
      defer { entries.removeAll() }
      return entries
    }
  }
}
