import Synchronization

/// A lock-free stack of deferred requests: pushed from any task, taken all at
/// once, and closed by its transaction's end.
///
/// Each node is owned by the stack (retained once) until taken.
struct DeferredStack: ~Copyable, Sendable {
  typealias Request = @Sendable () async -> Void

  private final class StackEntry: Sendable {
    let request: Request
    let next: Unmanaged<StackEntry>?
    init(_ request: @escaping Request, next: Unmanaged<StackEntry>?) {
      self.request = request
      self.next = next
    }
  }

  /// The top of a closed stack: never released, never run.
  private static let closedMarker = StackEntry({}, next: nil)

  private let top = Atomic<Unmanaged<StackEntry>?>(nil)

  init() {}

  deinit { _ = close() }

  private static func isClosed(_ top: Unmanaged<StackEntry>?) -> Bool {
    top?.toOpaque() == Unmanaged.passUnretained(closedMarker).toOpaque()
  }

  /// Pushes `request`, unless the stack was closed (``close()``): then
  /// returns false and pushes nothing.
  @discardableResult
  func push(_ request: @escaping Request) -> Bool {
    var expected = top.load(ordering: .acquiring)
    while true {
      if Self.isClosed(expected) { return false }
      let node = Unmanaged.passRetained(StackEntry(request, next: expected))
      let (exchanged, current) = top.compareExchange(
        expected: expected, desired: node, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
      if exchanged { return true }
      node.release()
      expected = current
    }
  }

  /// Everything pushed so far, oldest first; the stack is empty afterwards
  /// (and stays closed if it was).
  func takeAll() -> [Request] {
    var expected = top.load(ordering: .acquiring)
    while true {
      if expected == nil || Self.isClosed(expected) { return [] }
      let (exchanged, current) = top.compareExchange(
        expected: expected, desired: nil, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
      if exchanged { return Self.requests(from: expected) }
      expected = current
    }
  }

  /// Everything pushed so far, oldest first; every later ``push(_:)``
  /// fails.
  func close() -> [Request] {
    let taken = top.exchange(Unmanaged.passUnretained(Self.closedMarker), ordering: .acquiringAndReleasing)
    return Self.isClosed(taken) ? [] : Self.requests(from: taken)
  }

  /// The requests of the chain starting at `first` (taken off the stack),
  /// oldest first, releasing its nodes.
  private static func requests(from first: Unmanaged<StackEntry>?) -> [Request] {
    guard var next = first else { return [] }
    var requests: [Request] = []
    while true {
      let node = next.takeRetainedValue()
      requests.append(node.request)
      guard let below = node.next else { break }
      next = below
    }
    return requests.reversed()
  }
}
