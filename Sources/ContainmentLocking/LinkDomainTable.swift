/// The locks of the link domains: a fixed table of OS mutexes, one per cache
/// line, allocated once and never freed.
///
/// Each slot is a mutex, then (in debug builds) the id of the thread that
/// holds it, then the domain's generation (``generation(_:)``). The holder
/// lets debug builds check that every guarded access is made with its
/// domain's lock held (``TreeLock/assertHeld(_:)``); it is written only by
/// the thread that holds the mutex, and read to check that the reading
/// thread is that holder: a check that passes never races.
///
/// `@unchecked Sendable`: the table is allocated once and never moves; each
/// slot's holder id and generation are read and written only by the thread
/// that holds that slot's mutex (or, for the holder check, compared by a
/// thread to its own id), and the mutexes are the OS's.
public final class LinkDomainTable: @unchecked Sendable {
  /// The number of domains.
  public let count: Int
  @usableFromInline let base: UnsafeMutableRawPointer
  @usableFromInline static let stride = 64
  @usableFromInline static let holderOffset = MemoryLayout<PlatformMutex>.stride
  private static let generationOffset = holderOffset + MemoryLayout<UInt>.stride

  /// A table of `count` domains, each lock free.
  public init(count: Int) {
    precondition(Self.generationOffset + MemoryLayout<UInt>.size <= Self.stride)
    self.count = count
    base = .allocate(byteCount: count * Self.stride, alignment: Self.stride)
    for index in 0..<count {
      let mutex = (base + index * Self.stride).bindMemory(to: PlatformMutex.self, capacity: 1)
      initializeMutex(mutex, adaptive: false)
      (base + index * Self.stride + Self.holderOffset).bindMemory(to: UInt.self, capacity: 2).initialize(
        repeating: 0, count: 2)
    }
  }

  @inlinable @inline(__always)
  func mutex(_ index: Int) -> UnsafeMutablePointer<PlatformMutex> {
    (base + index * Self.stride).assumingMemoryBound(to: PlatformMutex.self)
  }

  @inlinable @inline(__always)
  func holder(_ index: Int) -> UnsafeMutablePointer<UInt> {
    (base + index * Self.stride + Self.holderOffset).assumingMemoryBound(to: UInt.self)
  }

  /// How many times objects have moved out of domain `index`, read and
  /// written only with its lock held: while it is unchanged, everything that
  /// was in the domain still is.
  public func generation(_ index: Int) -> UInt {
    (base + index * Self.stride + Self.generationOffset).assumingMemoryBound(to: UInt.self).pointee
  }

  /// With the lock of domain `index` held: objects are moving out of it.
  public func objectsLeft(_ index: Int) {
    (base + index * Self.stride + Self.generationOffset).assumingMemoryBound(to: UInt.self).pointee &+= 1
  }

  /// Takes the lock of domain `index`; a contended caller retries `tries`
  /// times before it sleeps.
  @inlinable @inline(__always)
  public func lock(_ index: Int, retrying tries: Int) {
    let mutex = mutex(index)
    if !tryLockMutex(mutex) { lockContended(mutex, tries: tries) }
    #if DEBUG
      holder(index).pointee = Self.currentThread()
    #endif
  }

  /// Takes the lock of domain `index` if it is free; never waits.
  @inlinable @inline(__always)
  public func tryLock(_ index: Int) -> Bool {
    guard tryLockMutex(mutex(index)) else { return false }
    #if DEBUG
      holder(index).pointee = Self.currentThread()
    #endif
    return true
  }

  /// Releases the lock of domain `index`: an opaque call, so that nothing
  /// read under the lock is retained after it (CONCURRENCY.md, "The link locks").
  @inlinable @inline(__always)
  public func unlock(_ index: Int) {
    #if DEBUG
      holder(index).pointee = 0
    #endif
    unlockMutex(mutex(index))
  }

  #if DEBUG
    /// Whether the calling thread holds the lock of domain `index` (debug
    /// builds only: release builds do not track holders, and have no answer).
    public func isHeldByCurrentThread(_ index: Int) -> Bool {
      holder(index).pointee == Self.currentThread()
    }
  #endif

  @usableFromInline static func currentThread() -> UInt { currentThreadID() }
}
