/// A ``Broadcaster`` stored inline in its owner: the same API and the same
/// end (dropping it finishes the subscriptions without a final element),
/// without an object of its own.
///
/// A controller's own stream is one: its events reach the shared storage in
/// one pointer step instead of two, and an idle controller keeps one object
/// less. It cannot be shared; a stream that several owners refer to (a tree
/// stream) is a ``Broadcaster``.
struct OwnedBroadcaster<Element: Broadcastable>: ~Copyable, BroadcastingFront {
  let storage: BroadcasterStorage<Element>

  /// Owns `storage`, which nothing else owns yet.
  init(storage: BroadcasterStorage<Element>) {
    self.storage = storage
  }

  deinit {
    storage.finish(final: nil)
  }
}
