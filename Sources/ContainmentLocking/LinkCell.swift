import Synchronization

/// A value its link domain guards: the one guarded cell of the runtime's
/// tree state (a controller's links, a window's state, a hierarchy slot).
///
/// Its value is reachable only with a ``LinkSection`` in hand (`cell[held]`),
/// that is, inside a ``TreeLock`` section; debug builds check, at every access,
/// that the section holds this cell's domain.
///
/// A final class, not a struct inside its owner: a generic class's
/// subscript is inlined into the runtime even across the module boundary,
/// where a generic struct's coroutine stays out of line. Release builds
/// skip Swift's dynamic exclusivity checks on the value
/// (`@exclusivity(unchecked)`): they cost a push+pop a tenth of its time
/// and can only find what the lock and the checked builds already rule out
/// (two threads cannot overlap under one lock, and an overlapping access
/// within one thread traps in every test and in the debug stress harness).
///
/// `@unchecked Sendable`: the value is read and written only under the lock
/// of ``domain``, which the subscript's proof requires; the domain is an
/// atomic.
public final class LinkCell<Value>: @unchecked Sendable, LinkGuarded {
  /// The index of the link domain guarding the value; changes only while
  /// the locks of both the old and the new domain are held
  /// (``TreeLock/join(_:_:into:)``).
  public let domain: Atomic<Int>
  #if DEBUG
    @usableFromInline var value: Value
  #else
    @exclusivity(unchecked) @usableFromInline var value: Value
  #endif

  /// A cell holding `value`, guarded by `domain`.
  public init(_ value: Value, domain: Int) {
    self.value = value
    self.domain = Atomic(domain)
  }

  /// The domain guarding the value (``LinkGuarded``).
  @inlinable
  public var linkDomain: Int { domain.load(ordering: .relaxed) }

  /// The value, inside a section.
  @inlinable @inline(__always)
  public subscript(_ held: LinkSection) -> Value {
    _read {
      TreeLock.assertHeld(self)
      yield value
    }
    _modify {
      TreeLock.assertHeld(self)
      yield &value
    }
  }

  /// The value, for the owner's deinitializer only: nothing else can reach
  /// an object being released, so no lock is taken (and a `deinit` must not
  /// take one: the last reference may be dropped inside a section).
  @inlinable
  public var releasing: Value {
    _read { yield value }
    _modify { yield &value }
  }
}
