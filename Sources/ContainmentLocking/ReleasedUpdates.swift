import Synchronization

/// The link updates `deinit`s hand over (``TreeLock/afterRelease(in:_:)``),
/// kept per link domain.
///
/// Each domain's list has a leaf lock of its own, so trees released in
/// different domains share no lock. A bitmap of the domains that have
/// updates lets a section find them without looking at every list, and a
/// total lets every section skip all of this with one atomic load.
public final class ReleasedUpdates: Sendable {
  /// An update, run under the lock of its domain.
  public typealias Update = @Sendable (LinkSection) -> Void

  private final class Word: Sendable {
    let bits = Atomic<UInt64>(0)
  }

  private let lists: [Locked<[Update]>]
  /// Bit `d` is set while domain `d`'s list is not empty; changed only
  /// under that list's lock.
  private let words: [Word]
  @usableFromInline let total = Atomic<Int>(0)

  /// A list per domain of a table of `count` domains.
  public init(count: Int) {
    lists = (0..<count).map { _ in Locked([]) }
    words = (0..<(count + 63) / 64).map { _ in Word() }
  }

  /// Whether any domain has updates.
  @inlinable @inline(__always)
  public var isEmpty: Bool { total.load(ordering: .acquiring) == 0 }

  /// From a `deinit`: adds an update for `domain`.
  ///
  /// Takes no link lock.
  public func append(_ update: @escaping Update, in domain: Int) {
    lists[domain].withLock { list in
      list.append(update)
      words[domain / 64].bits.bitwiseOr(1 << UInt64(domain % 64), ordering: .relaxed)
    }
    total.add(1, ordering: .releasing)
  }

  /// With the lock of `domain` held: takes its updates, to be run under it.
  public func take(_ domain: Int) -> [Update] {
    let taken = lists[domain].withLock { list -> [Update] in
      guard !list.isEmpty else { return [] }
      defer {
        list.removeAll()
        words[domain / 64].bits.bitwiseAnd(~(1 << UInt64(domain % 64)), ordering: .relaxed)
      }
      return list
    }
    if !taken.isEmpty { total.subtract(taken.count, ordering: .relaxed) }
    return taken
  }

  /// The domains that have updates (a snapshot).
  public var domainsWithUpdates: [Int] {
    var domains: [Int] = []
    for (index, word) in words.enumerated() {
      var bits = word.bits.load(ordering: .relaxed)
      while bits != 0 {
        let bit = bits.trailingZeroBitCount
        domains.append(index * 64 + bit)
        bits &= bits - 1
      }
    }
    return domains
  }
}
