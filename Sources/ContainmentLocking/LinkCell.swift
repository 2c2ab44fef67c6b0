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
/// reach the value through addressors (a pointer to the cell's first stored
/// property), not coroutines: an access the compiler cannot inline a
/// coroutine into (one that leaves the access on several paths) would
/// allocate the coroutine's frame and copy the value into it — more than
/// half of a push+pop's allocations did. Release builds also skip Swift's
/// dynamic exclusivity checks on the value: they cost a push+pop a tenth of
/// its time and can only find what the lock and the checked builds already
/// rule out (two threads cannot overlap under one lock, and an overlapping
/// access within one thread traps in every test and in the debug stress
/// harness, which keep the checked coroutines).
///
/// `@unchecked Sendable`: the value is read and written only under the lock
/// of ``domain``, which the subscript's proof requires; the domain is an
/// atomic.
public final class LinkCell<Value>: @unchecked Sendable, LinkGuarded {
  // The first stored property: ``address`` finds it where the object's
  // stored properties begin.
  #if DEBUG
    @usableFromInline var value: Value
  #else
    @exclusivity(unchecked) @usableFromInline var value: Value
  #endif
  /// The index of the link domain guarding the value; changes only while
  /// the locks of both the old and the new domain are held
  /// (``TreeLock/join(_:_:into:)``).
  public let domain: Atomic<Int>

  /// A cell holding `value`, guarded by `domain`.
  public init(_ value: Value, domain: Int) {
    self.value = value
    self.domain = Atomic(domain)
    #if DEBUG
      withUnsafeMutablePointer(to: &self.value) { assert($0 == address, "the value is not at `address`") }
    #endif
  }

  /// The domain guarding the value (``LinkGuarded``).
  @inlinable
  public var linkDomain: Int { domain.load(ordering: .relaxed) }

  #if DEBUG
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
  #else
    /// The value, inside a section.
    @inlinable @inline(__always)
    public subscript(_ held: LinkSection) -> Value {
      unsafeAddress { UnsafePointer(address) }
      unsafeMutableAddress { address }
    }
  #endif

  /// The value's address, inside a section, for an owner that forwards
  /// ``subscript(_:)`` (release builds; debug builds forward the subscript's
  /// coroutines, which check the domain).
  @inlinable @inline(__always)
  public func address(_ held: LinkSection) -> UnsafeMutablePointer<Value> {
    TreeLock.assertHeld(self)
    return address
  }

  /// Where `value` lives.
  ///
  /// The first stored property, at the start of the object's stored
  /// properties (the way swift-atomics' `ManagedAtomic` reaches its
  /// storage). Valid while the cell lives; the cell's owner holds it as a
  /// constant.
  @inlinable @inline(__always)
  var address: UnsafeMutablePointer<Value> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Value.self)
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
