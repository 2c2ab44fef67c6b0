/// A weak reference to something a check expects to be released, with the
/// name a leak finding gives it.
final class WeakReference: @unchecked Sendable {
  // Written once, in `init`; a weak load is thread-safe.
  private weak var object: AnyObject?
  let label: String

  init(_ object: AnyObject, label: String) {
    self.object = object
    self.label = label
  }

  var isAlive: Bool { object != nil }
}
