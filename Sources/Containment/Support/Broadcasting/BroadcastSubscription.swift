import Synchronization

/// One registration with a broadcaster.
///
/// Shared by a `BroadcastSequence` and the iterator made from it; when the last of them is
/// dropped, `deinit` unsubscribes.
final class BroadcastSubscription<Element: Broadcastable>: Sendable {
  let storage: BroadcasterStorage<Element>
  let id: Int
  private let claimed = Atomic<Bool>(false)

  init(storage: BroadcasterStorage<Element>, id: Int) {
    self.storage = storage
    self.id = id
  }

  /// `true` for the first caller only: the subscription can be iterated once.
  func claim() -> Bool {
    !claimed.exchange(true, ordering: .relaxed)
  }

  deinit {
    storage.cancel(id: id)
  }
}
