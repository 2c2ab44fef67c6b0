import Synchronization

/// An element a ``Broadcaster`` carries, with what its owner reports to each
/// new subscriber: kept under the broadcaster's lock, so that it always
/// matches the numbering of the elements yielded so far.
package protocol Broadcastable: Sendable {
  associatedtype Reported: Sendable = Void
  /// What is reported before any element changed it.
  static var initialReported: Reported { get }
}

extension Broadcastable where Reported == Void {
  package static var initialReported: Void { () }
}
