/// The locks of the link domains: a fixed table of ``Locked`` slots, one per
/// domain, allocated once and never freed.
///
/// Each slot guards the domain's generation (``generation(_:)``) and, in
/// debug builds, the id of the thread that holds it. The holder lets debug
/// builds check that every guarded access is made with its domain's lock
/// held (``TreeLock/assertHeld(_:)``); it is written only by the thread that
/// holds the lock, and read to check that the reading thread is that holder:
/// a check that passes never races.
///
/// Checked `Sendable`: its slots are ``Locked`` values. Their mutexes do not
/// spin by themselves; ``lock(_:retrying:)`` spins for a bounded number of
/// tries first, as ``Locked/withLock(retrying:_:)`` does.
public final class LinkDomainTable: Sendable {
  /// The number of domains.
  public let count: Int
  @usableFromInline let slots: [Locked<DomainSlot>]

  /// A table of `count` unlocked domains.
  public init(count: Int) {
    self.count = count
    slots = (0..<count).map { _ in Locked(DomainSlot(), adaptive: false) }
  }

  /// The generation of domain `index`, read with its lock held.
  ///
  /// How many times objects have left it (``objectsLeft(_:)``): while it is
  /// unchanged, everything that was in the domain still is.
  public func generation(_ index: Int) -> UInt {
    storage(index)._withUnsafeGuaranteedRef { storage in storage.withValueOfHolder { $0.generation } }
  }

  /// Slot `index`'s storage, without a retain: the table keeps every slot
  /// for the process's life, and a retain per lock and unlock would be an
  /// atomic write to a line that every tree in the domain shares.
  @inlinable @inline(__always)
  func storage(_ index: Int) -> Unmanaged<LockedStorage<DomainSlot>> {
    slots.withUnsafeBufferPointer { slots in Unmanaged.passUnretained(slots[index].storage) }
  }

  /// Records that objects left domain `index` (``TreeLock/join(_:_:into:)``);
  /// called with its lock held.
  public func objectsLeft(_ index: Int) {
    storage(index)._withUnsafeGuaranteedRef { storage in storage.withValueOfHolder { $0.generation &+= 1 } }
  }

  /// Takes the lock of domain `index`, trying `tries` times with a growing
  /// pause before it sleeps.
  @inlinable @inline(__always)
  public func lock(_ index: Int, retrying tries: Int) {
    storage(index)._withUnsafeGuaranteedRef { storage in
      storage.lock(retrying: tries)
      #if DEBUG
        storage.withValueOfHolder { $0.holder = Self.currentThread() }
      #endif
    }
  }

  /// Takes the lock of domain `index` if it is free.
  @inlinable @inline(__always)
  public func tryLock(_ index: Int) -> Bool {
    storage(index)._withUnsafeGuaranteedRef { storage in
      guard storage.tryLock() else { return false }
      #if DEBUG
        storage.withValueOfHolder { $0.holder = Self.currentThread() }
      #endif
      return true
    }
  }

  /// Releases the lock of domain `index`.
  @inlinable @inline(__always)
  public func unlock(_ index: Int) {
    storage(index)._withUnsafeGuaranteedRef { storage in
      #if DEBUG
        storage.withValueOfHolder { $0.holder = 0 }
      #endif
      storage.unlock()
    }
  }

  #if DEBUG
    /// Whether the calling thread holds the lock of domain `index`.
    public func isHeldByCurrentThread(_ index: Int) -> Bool {
      storage(index)._withUnsafeGuaranteedRef { storage in storage.withValueOfHolder { $0.holder } }
        == Self.currentThread()
    }
  #endif

  @usableFromInline static func currentThread() -> UInt { currentThreadID() }
}

/// What a domain's lock guards besides the links: its generation and, in
/// debug builds, its holder.
///
/// Padded so that a slot's allocation is about two cache lines: the mutexes
/// of two domains never share a line, even in neighbouring allocations, so
/// trees on different cores do not slow each other's locking.
@usableFromInline
struct DomainSlot {
  /// The id of the thread holding the lock, 0 when free (debug builds).
  @usableFromInline var holder: UInt = 0
  /// How many times objects left the domain.
  var generation: UInt = 0
  private var padding: (UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0)
}
