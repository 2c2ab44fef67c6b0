import Synchronization

/// The stable identity of a controller: unique for the life of the process,
/// never reused, cheap to copy, hash and compare.
public struct ControllerID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
  /// The raw, process-unique number.
  public let rawValue: UInt64

  private static let counter = Atomic<UInt64>(0)

  static func next() -> ControllerID {
    ControllerID(rawValue: counter.wrappingAdd(1, ordering: .relaxed).newValue)
  }

  init(rawValue: UInt64) { self.rawValue = rawValue }

  /// Orders by creation: an earlier id is smaller.
  public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.rawValue < rhs.rawValue }
  /// A readable description.
  public var description: String { "#\(rawValue)" }
}
