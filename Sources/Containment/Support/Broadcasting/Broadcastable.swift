import Synchronization

/// An element a ``Broadcaster`` carries, with what its owner reports to each
/// new subscriber: kept under the broadcaster's lock, so that it always
/// matches the numbering of the elements yielded so far.
package protocol Broadcastable: Sendable {
  associatedtype Reported: Sendable = Void
  /// What is reported before any element changed it.
  static var initialReported: Reported { get }

  /// Applies a change to what is reported that was recorded without the
  /// lock, as a small code (1...127) the owner chose
  /// (``Broadcaster/advanceWithoutLock(reporting:)``).
  static func applyUnlockedReport(_ code: UInt8, to reported: inout Reported)
}

extension Broadcastable where Reported == Void {
  package static var initialReported: Void { () }
  package static func applyUnlockedReport(_ code: UInt8, to reported: inout Void) {}
}
