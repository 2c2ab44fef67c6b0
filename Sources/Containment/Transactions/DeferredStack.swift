import Synchronization

/// A lock-free stack of deferred requests: pushed from any task, taken all at
/// once.
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

  private let top = Atomic<Unmanaged<StackEntry>?>(nil)

  init() {}

  deinit { _ = takeAll() }

  func push(_ request: @escaping Request) {
    var expected = top.load(ordering: .acquiring)
    while true {
      let node = Unmanaged.passRetained(StackEntry(request, next: expected))
      let (exchanged, current) = top.compareExchange(
        expected: expected, desired: node, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
      if exchanged { return }
      node.release()
      expected = current
    }
  }

  /// Everything pushed so far, oldest first; the stack is empty afterwards.
  func takeAll() -> [Request] {
    guard var next = top.exchange(nil, ordering: .acquiringAndReleasing) else { return [] }
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
