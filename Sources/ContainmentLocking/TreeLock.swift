import Synchronization

/// An object whose links a link domain guards: a controller's node, a view,
/// a window.
public protocol LinkGuarded: AnyObject {
  /// The domain whose lock guards this object's links. Read without a lock:
  /// it changes only while the locks of both its old and its new domain are
  /// held, so it is stable for a holder of either.
  var linkDomain: Int { get }
}

/// Proof that the calling code runs inside a link-lock section: every
/// ``TreeLock/withLock(_:_:)`` section hands one to its body, and nothing
/// else can make one (its initializer is internal to the locking module), so state that
/// asks for it cannot be reached outside a section.
///
/// Guarded state takes it as a subscript argument (`links[held].children`);
/// helpers that run inside a section take it as their first parameter.
///
/// It proves *a* section, not which locks: debug builds check, at every
/// access, that the section holds the lock of the accessed object's domain.
/// It is copyable only because subscripts cannot yet take noncopyable
/// arguments; keep it a parameter, never store it.
///
/// Guarded state lives in a ``LinkCell`` (a controller's links, a hierarchy
/// slot, a container's bookkeeping) or, for a view and a window, in a
/// `private` property behind the same `subscript(_: LinkSection)`.
public struct LinkSection {
  @usableFromInline init() {}
}

/// The link locks: the locks that guard the *links* of the trees — parent and
/// child links, superview and subview links, window attachment, appearance
/// state, container bookkeeping and the in-flight reservations of moving
/// children.
///
/// Why locks and not actors: cycle checks, "does this child already have a
/// parent", moves between containers and invariant checks must read several
/// controllers' links at one instant. Reading actor state one actor at a time
/// is racy; a short critical section is not.
///
/// Every section names the objects whose links it reads or writes
/// (`TreeLock.withLock(node) { … }`, `withLock(parent, child)`); it holds
/// the lock of each one's *link domain* (see ``LinkGuarded``). Linked objects
/// always share a domain, so a section may follow links from the objects it
/// names. Debug builds check every guarded access against the held locks
/// (``assertHeld(_:)``).
///
/// No critical section waits for anything, so a waiter retries for a few
/// microseconds before it sleeps.
///
/// Rules (CONCURRENCY.md, "The link locks"):
/// - held only for synchronous bookkeeping, never across a hook call, an
///   `await`, a continuation resume, or an event delivery;
/// - never nested: the domains of one section are taken together, in index
///   order (the only locks taken inside are leaf locks that never call out);
/// - every field documented as "guarded by `TreeLock`" is read and written
///   only inside a section that names its object (or an object linked to it).
public enum TreeLock {
  /// The domains' locks.
  public static let domains = LinkDomainTable(count: 128)
  /// Tries before a contended waiter sleeps: a few microseconds.
  @usableFromInline static let triesBeforeSleeping = 100
  /// Link updates handed over by `deinit`s (see ``afterRelease(in:_:)``).
  @usableFromInline static let released = ReleasedUpdates(count: domains.count)

  /// Runs `body` with the lock of `member`'s domain held.
  ///
  /// `body` must not suspend, call a hook, resume a continuation, or deliver an
  /// event. Link updates handed over by `deinit`s run first, so `body` never
  /// sees links of a released object.
  @inlinable @inline(__always)
  public static func withLock<Result>(_ member: some LinkGuarded, _ body: (LinkSection) throws -> Result) rethrows
    -> Result
  {
    while true {
      let domain = member.linkDomain
      if let result = try withLock(domain: domain, if: { member.linkDomain == domain }, body) { return result }
    }
  }

  /// Runs `body` with the lock of `domain` held if `isValid()` holds once the
  /// lock is taken (the objects read before are still in that domain);
  /// returns nil, having run nothing, otherwise.
  @inlinable @inline(__always)
  static func withLock<Result>(domain: Int, if isValid: () -> Bool, _ body: (LinkSection) throws -> Result)
    rethrows -> Result?
  {
    domains.lock(domain, retrying: triesBeforeSleeping)
    guard isValid() else {
      domains.unlock(domain)
      return nil
    }
    defer {
      domains.unlock(domain)
      sectionEnded()
    }
    sectionStarted(holding: [domain])
    return try body(LinkSection())
  }

  /// Runs `body` with the locks of both objects' domains held (one lock if
  /// they share a domain), taken in index order.
  @inlinable @inline(__always)
  public static func withLock<Result>(
    _ first: some LinkGuarded, _ second: some LinkGuarded, _ body: (LinkSection) throws -> Result
  ) rethrows -> Result {
    while true {
      let a = first.linkDomain
      let b = second.linkDomain
      if a == b {
        domains.lock(a, retrying: triesBeforeSleeping)
      } else {
        domains.lock(min(a, b), retrying: triesBeforeSleeping)
        domains.lock(max(a, b), retrying: triesBeforeSleeping)
      }
      guard first.linkDomain == a, second.linkDomain == b else {
        domains.unlock(a)
        if a != b { domains.unlock(b) }
        continue
      }
      defer {
        domains.unlock(a)
        if a != b { domains.unlock(b) }
        sectionEnded()
      }
      sectionStarted(holding: a == b ? [a] : [a, b])
      return try body(LinkSection())
    }
  }

  /// Runs `body` with the locks of the three objects' domains held (each
  /// domain once), taken in index order.
  ///
  /// Allocates nothing (the form that takes an array builds an
  /// array of boxed objects).
  @inlinable @inline(__always)
  public static func withLock<Result>(
    _ first: some LinkGuarded, _ second: some LinkGuarded, _ third: some LinkGuarded,
    _ body: (LinkSection) throws -> Result
  ) rethrows -> Result {
    while true {
      let a = first.linkDomain
      let b = second.linkDomain
      let c = third.linkDomain
      // The distinct domains in index order: low, then middle and high if
      // they differ from the one before.
      let low = min(a, b, c)
      let high = max(a, b, c)
      let middle = a + b + c - low - high
      domains.lock(low, retrying: triesBeforeSleeping)
      if middle != low { domains.lock(middle, retrying: triesBeforeSleeping) }
      if high != middle { domains.lock(high, retrying: triesBeforeSleeping) }
      func unlockAll() {
        if high != middle { domains.unlock(high) }
        if middle != low { domains.unlock(middle) }
        domains.unlock(low)
      }
      guard first.linkDomain == a, second.linkDomain == b, third.linkDomain == c else {
        unlockAll()
        continue
      }
      defer {
        unlockAll()
        sectionEnded()
      }
      sectionStarted(holding: [low, middle, high].reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
      return try body(LinkSection())
    }
  }

  /// Runs `body` with the locks of `first`'s domain and, if there is a
  /// `second`, of its domain held.
  @inlinable @inline(__always)
  public static func withLock<Result>(
    _ first: some LinkGuarded, _ second: (some LinkGuarded)?, _ body: (LinkSection) throws -> Result
  ) rethrows -> Result {
    if let second { return try withLock(first, second, body) }
    return try withLock(first, body)
  }

  /// Runs `body` with the locks of every member's domain held, taken in
  /// index order.
  @inlinable @inline(__always)
  public static func withLock<Result>(_ members: [any LinkGuarded], _ body: (LinkSection) throws -> Result) rethrows
    -> Result
  {
    try withLock(each: members, \.linkDomain, body)
  }

  /// Runs `body` with the locks of the domains of every element of `items`
  /// (`domain` reads one) held, taken in index order.
  ///
  /// Allocates nothing when they share one domain, the common case.
  public static func withLock<Items: Collection, Result>(
    each items: Items, _ domain: (Items.Element) -> Int, _ body: (LinkSection) throws -> Result
  ) rethrows -> Result {
    while true {
      var first = -1
      var others: [Int] = []
      for item in items {
        let index = domain(item)
        if first < 0 {
          first = index
        } else if index != first, !others.contains(index) {
          others.append(index)
        }
      }
      if first < 0 { return try body(LinkSection()) }
      if others.isEmpty {
        if let result = try withLock(domain: first, if: { items.allSatisfy({ domain($0) == first }) }, body) {
          return result
        }
        continue
      }
      others.append(first)
      others.sort()
      let held = others
      for index in held { domains.lock(index, retrying: triesBeforeSleeping) }
      guard items.allSatisfy({ held.contains(domain($0)) }) else {
        for index in held { domains.unlock(index) }
        continue
      }
      defer {
        for index in held { domains.unlock(index) }
        sectionEnded()
      }
      sectionStarted(holding: held)
      return try body(LinkSection())
    }
  }

  /// Runs `body` with the lock of `domain` held if nothing has moved out of
  /// that domain since its generation was `generation` (read under its lock
  /// earlier, with ``LinkDomainTable/generation(_:)``): then every object
  /// that was in it still is, without asking each.
  ///
  /// Returns nil, having run nothing, otherwise.
  @inlinable
  public static func withLock<Result>(
    domain: Int, ifGeneration generation: UInt, _ body: (LinkSection) throws -> Result
  )
    rethrows
    -> Result?
  {
    try withLock(domain: domain, if: { domains.generation(domain) == generation }, body)
  }

  /// Debug builds: stops the process if the calling thread does not hold
  /// the lock of `member`'s domain.
  ///
  /// Every guarded field's accessor calls it.
  @inlinable @inline(__always)
  public static func assertHeld(_ member: some LinkGuarded) {
    #if DEBUG
      let domain = member.linkDomain
      if !domains.isHeldByCurrentThread(domain) {
        preconditionFailure("\(type(of: member))'s links read or written without the lock of its domain \(domain)")
      }
    #endif
  }

  /// Hands over a link update a `deinit` must make (a released window takes
  /// its tree off screen; a released container's surviving children become
  /// roots) on objects of `domain`.
  ///
  /// A `deinit` cannot take a link lock: the last reference may be dropped by
  /// code that holds it. The update runs, under the lock of `domain`, at the
  /// start of the next critical section that takes it, before anyone can read
  /// the links it fixes (moving an object to another domain takes its domain's
  /// lock first), or at the end of any section if that domain is free then. It
  /// must not keep the objects it updates alive.
  public static func afterRelease(in domain: Int, _ update: @escaping @Sendable (LinkSection) -> Void) {
    released.append(update, in: domain)
  }

  /// Takes and releases every domain's lock in turn, running the link
  /// updates handed over to each: afterwards, no update handed over before
  /// the call is still pending or running.
  ///
  /// For leak checks.
  public static func settleReleases() {
    for domain in 0..<domains.count {
      domains.lock(domain, retrying: triesBeforeSleeping)
      defer { domains.unlock(domain) }
      sectionStarted(holding: [domain])
    }
  }

  /// At the start of every section, with its locks held: the updates handed
  /// over to those domains run first.
  @inlinable @inline(__always)
  static func sectionStarted(holding held: @autoclosure () -> [Int]) {
    if !released.isEmpty { runReleased(in: held()) }
  }

  /// At the end of every section, its locks released.
  @inlinable @inline(__always)
  static func sectionEnded() {
    if !released.isEmpty { runReleasedOfIdleDomains() }
  }

  /// After a section: runs the updates handed over to domains nobody holds,
  /// so that a domain nobody takes again does not leave every section on
  /// the slow path.
  ///
  /// Never waits for a lock.
  @usableFromInline static func runReleasedOfIdleDomains() {
    for domain in released.domainsWithUpdates where domains.tryLock(domain) {
      runReleased(in: [domain])
      domains.unlock(domain)
    }
  }

  @usableFromInline static func runReleased(in held: [Int]) {
    for domain in held {
      for update in released.take(domain) { update(LinkSection()) }
    }
  }
}
