import Synchronization

/// A reference that is set at most once and read without a lock: the
/// contract of Synchronization's `AtomicLazyReference`, in one atomic word.
///
/// Why not `AtomicLazyReference`: its methods are not inlinable, so every
/// `load()` from another module is an unspecialized generic call that looks
/// up its type's metadata (a tenth of an observed event's cost). These
/// compile into the caller.
///
/// Isolation: non-isolated, safe from any thread. `load()` is an acquiring
/// load; `storeIfNil(_:)` publishes the object with a releasing exchange, so a
/// reader that sees it sees it fully initialized.
public struct LazyReference<Instance: AnyObject>: ~Copyable {
  @usableFromInline let word: Atomic<Unmanaged<Instance>?>

  /// An empty reference.
  @inlinable public init() {
    word = Atomic(nil)
  }

  deinit {
    word.load(ordering: .acquiring)?.release()
  }

  /// The object, if one was stored.
  @inlinable public func load() -> Instance? {
    word.load(ordering: .acquiring)?.takeUnretainedValue()
  }

  /// `body` run on the object, if one was stored, without retaining it: the
  /// object lives as long as this reference does.
  @inlinable public func withLoaded<Result>(_ body: (Instance) throws -> Result) rethrows -> Result? {
    guard let object = word.load(ordering: .acquiring) else { return nil }
    return try object._withUnsafeGuaranteedRef(body)
  }

  /// Stores `desired` unless an object is stored already; returns the object
  /// stored now (`desired`, or the one that won the race).
  @inlinable public func storeIfNil(_ desired: Instance) -> Instance {
    let new = Unmanaged.passRetained(desired)
    let (exchanged, current) = word.compareExchange(
      expected: nil, desired: new, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
    if exchanged { return desired }
    new.release()
    // The exchange failed, so the word held an object.
    return current.unsafelyUnwrapped.takeUnretainedValue()
  }
}

extension LazyReference: Sendable where Instance: Sendable {}
