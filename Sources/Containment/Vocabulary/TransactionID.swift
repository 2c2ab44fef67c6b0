import Synchronization

/// Identifies one transaction (R1): every event a transaction causes
/// carries its id (A7, E3).
public struct TransactionID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
  /// The raw, process-unique number; larger ids were created later.
  public let rawValue: UInt64

  private static let counter = Atomic<UInt64>(0)

  static func next() -> TransactionID {
    TransactionID(rawValue: counter.wrappingAdd(1, ordering: .relaxed).newValue)
  }

  init(rawValue: UInt64) { self.rawValue = rawValue }

  /// Orders by creation: an earlier id is smaller.
  public static func < (lhs: TransactionID, rhs: TransactionID) -> Bool { lhs.rawValue < rhs.rawValue }
  /// A readable description.
  public var description: String { "tx\(rawValue)" }
}
