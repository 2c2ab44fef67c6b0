import Synchronization

/// Per-governor bookkeeping for hierarchical exclusion, guarded by the
/// governor's link domain like its links.
///
/// Transactions on one container are serialized by its FIFO queue (R1).
/// Transactions on *different* containers of one tree must not overlap either
/// when one container is an ancestor of the other: an ancestor's appearance
/// pass over a subtree would otherwise interleave its decisions and hooks with
/// a descendant's transition half-way through, and a controller's hook
/// sequence would match no sequential order (R4). Siblings' subtrees are
/// disjoint, so their transactions still run in parallel, as do independent
/// trees (R5).
final class HierarchySlot: @unchecked Sendable {
  /// The link domain of the slot's controller or window, which guards the
  /// state below: a copy of theirs, moved with it (``TreeLock/_join(_:into:)``).
  let domain: Atomic<Int>

  struct State {
    /// Transactions running on this governor (nested ones included).
    var running = 0
    /// Transactions running on strict descendants.
    var activeBelow = 0
    /// Top-level transactions here waiting for their descendants to finish:
    /// new top-level transactions below wait behind them (no starvation).
    var pending = 0
    /// Tasks waiting for this slot to change.
    var waiters: [ExclusionWaiter] = []
    /// On the slot that stands for a whole tree (``TreePosition/treeSlot``):
    /// the admitted transactions of the tree and the top-level ones waiting as
    /// pending. While there are none, a top-level transaction is admitted
    /// without walking to the root (the fast path of
    /// ``HierarchyExclusion/enter(_:adopting:cancellable:)``).
    var treeMarks: [TreeBusyMark] = []
    /// On a root's slot: admitted transactions that will link this tree into
    /// theirs (a window taking it as its root, a container adding it). Until
    /// they end, no transaction of this tree is admitted: one admitted before
    /// the link would overlap them once linked (R4).
    var adoptions = 0
    /// The package's tests waiting for transactions to wait here
    /// (`waiters(atLeast:)`).
    var waiterObservers = CountObservers()
  }
  // Release builds skip Swift's dynamic exclusivity checks here, as for a
  // controller's links (see `ControllerNode.links`).
  #if DEBUG
    private var state = State()
  #else
    @exclusivity(unchecked) private var state = State()
  #endif

  init(domain: Int) {
    self.domain = Atomic(domain)
  }

  // MARK: Guarded by TreeLock

  /// The state; only with the lock of this slot's domain held (checked in
  /// debug builds).
  var _state: State {
    _read {
      TreeLock.assertHeld(self)
      yield state
    }
    _modify {
      TreeLock.assertHeld(self)
      yield &state
    }
  }
}

extension HierarchySlot: LinkGuarded {
  var linkDomain: Int { domain.load(ordering: .relaxed) }
}

/// What a waiting top-level transaction is told when it resumes.
enum ExclusionStep: Sendable {
  case admitted(HierarchyExclusion.Admission)
  /// Something changed: check again.
  case retry
  case cancelled
}

/// One top-level transaction waiting for admission.
///
/// Its state lives here, not in the waiting frame, so that nothing but the
/// resume value crosses from the resuming thread to the resumed task. The
/// state has a leaf lock of its own, taken inside link sections: the waiter
/// is registered with a slot of whichever tree it waits for, and its
/// cancellation handler runs on another thread holding no link lock.
final class ExclusionWaiter: Sendable {
  struct State {
    var continuation: UnsafeContinuation<ExclusionStep, Never>?
    /// The slot it is registered with, while registered; that slot's link
    /// domain guards its entry in the slot's waiters.
    var slot: HierarchySlot?
    var isCancelled = false
    /// True while it has marked its own slot `pending` (waiting for
    /// descendants). Only the waiting task changes it.
    var isPending = false
  }
  let state = Locked(State())
  /// Keeps its tree on the slow path while it is pending.
  let mark = TreeBusyMark(governor: nil)

  var isCancelled: Bool { state.withLock { $0.isCancelled } }
  var isPending: Bool { state.withLock { $0.isPending } }
}

/// The tree slots holding a mark, in the order they took it: usually one or
/// two (a transaction whose subtree split off), kept inline.
struct SlotList: Sequence {
  private var first: HierarchySlot?
  private var second: HierarchySlot?
  private var more: [HierarchySlot] = []

  init() {}
  init(_ slot: HierarchySlot) { first = slot }

  var count: Int { (first == nil ? 0 : 1) + (second == nil ? 0 : 1) + more.count }

  mutating func append(_ slot: HierarchySlot) {
    if first == nil {
      first = slot
    } else if second == nil {
      second = slot
    } else {
      more.append(slot)
    }
  }

  func makeIterator() -> Iterator { Iterator(list: self) }

  struct Iterator: IteratorProtocol {
    let list: SlotList
    var index = 0
    mutating func next() -> HierarchySlot? {
      defer { index += 1 }
      switch index {
      case 0: return list.first
      case 1: return list.first == nil ? nil : list.second
      default:
        let position = index - 2
        return list.second != nil && position < list.more.count ? list.more[position] : nil
      }
    }
  }
}

/// One transaction that keeps its tree off the fast path of hierarchical
/// exclusion: admitted and running, or waiting as pending.
///
/// It is held by the tree slot of every tree it has belonged to since: when
/// a tree merges into another or a subtree leaves, the marks of the old tree
/// are added to the new one (``HierarchyExclusion/_treeChanged(from:to:)``),
/// so no tree ever looks idle while a transaction that may overlap runs.
/// Those trees may have different link domains by the time it ends (a
/// subtree that left joins another tree), so the mark's own fields have a
/// leaf lock: its holder reads which trees and ancestors it is in, takes
/// their domains, and checks that nothing changed meanwhile
/// (``HierarchyExclusion/withLinks(of:_:chain:touching:_:)``). Every change
/// to them is made holding the domain of one of its trees (or by its owner
/// before it is in any), so once those domains are held they stay as read.
struct TreeBusyMark: Sendable {
  struct State {
    /// For an admitted transaction: its governor.
    let governor: Governor?
    /// For an admitted transaction: the ancestors whose `activeBelow` counts
    /// it; nil until counted. The fast path admits without walking to the
    /// root; the ancestors are counted when a second transaction of the tree
    /// needs those counts, or before the tree's shape changes.
    var ancestors: [HierarchySlot]?
    /// The tree slots that hold it.
    var trees = SlotList()
  }
  /// A mark is one object, its lock and state: copies are the same mark.
  private let state: Locked<State>

  init(governor: Governor?) { state = Locked(State(governor: governor)) }

  /// A mark admitted into `tree`, its ancestors counted or not (the caller
  /// adds it to the tree's `treeMarks`).
  init(governor: Governor, ancestors: [HierarchySlot]?, tree: HierarchySlot) {
    state = Locked(State(governor: governor, ancestors: ancestors, trees: SlotList(tree)))
  }

  static func === (a: TreeBusyMark, b: TreeBusyMark) -> Bool { a.state.isSame(as: b.state) }

  /// For an admitted transaction: its governor.
  var governor: Governor? { state.withLock { $0.governor } }

  /// The slots whose domains guard what this mark touches: its trees and
  /// its counted ancestors.
  var slots: [HierarchySlot] {
    state.withLock { Array($0.trees) + ($0.ancestors ?? []) }
  }

  /// With the lock of `domain` held: if all its trees and ancestors are in
  /// that domain (then its lists cannot change while it is held), takes
  /// them (it is in no tree afterwards); nil otherwise.
  func take(ifAllIn domain: Int) -> (trees: SlotList, ancestors: [HierarchySlot]?)? {
    state.withLock { state in
      guard state.trees.allSatisfy({ $0.linkDomain == domain }),
        (state.ancestors ?? []).allSatisfy({ $0.linkDomain == domain })
      else { return nil }
      defer { state.trees = SlotList() }
      return (state.trees, state.ancestors)
    }
  }

  /// With the domains of all its trees held: takes its trees and ancestors
  /// (it is in no tree afterwards).
  func take() -> (trees: SlotList, ancestors: [HierarchySlot]?) {
    state.withLock { state in
      defer { state.trees = SlotList() }
      return (state.trees, state.ancestors)
    }
  }

  /// Whether its trees and ancestors are exactly `slots` (see ``slots``).
  func touches(exactly slots: [HierarchySlot]) -> Bool {
    state.withLock { state in
      let ancestors = state.ancestors ?? []
      guard state.trees.count + ancestors.count == slots.count else { return false }
      return zip(Array(state.trees) + ancestors, slots).allSatisfy { $0 === $1 }
    }
  }

  /// With the link domain of one of its trees held.
  var ancestors: [HierarchySlot]? {
    get { state.withLock { $0.ancestors } }
    nonmutating set { state.withLock { $0.ancestors = newValue } }
  }

  /// With the domain of `tree` held, and of one of its trees if it has any.
  func add(to tree: HierarchySlot) {
    let added = state.withLock { state in
      guard !state.trees.contains(where: { $0 === tree }) else { return false }
      state.trees.append(tree)
      return true
    }
    if added { tree._state.treeMarks.append(self) }
  }

  /// With the domains of all its trees held: removes the mark from every
  /// tree that holds it. Returns the waiters of the trees left idle: a
  /// transaction waiting to adopt one of them must check again.
  func removeFromTrees() -> [UnsafeContinuation<ExclusionStep, Never>] {
    _removeFrom(take().trees)
  }

  /// With the domains of `trees` held: removes the mark from the trees it
  /// was taken from (``take()``), returning the waiters of the trees left idle.
  func _removeFrom(_ trees: SlotList) -> [UnsafeContinuation<ExclusionStep, Never>] {
    var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
    for tree in trees {
      tree._state.treeMarks.removeAll { $0 === self }
      if tree._state.treeMarks.isEmpty { woken += tree._wakeAll() }
    }
    return woken
  }
}

/// Admission of a transaction into its tree (CONCURRENCY.md, "Hierarchical
/// exclusion").
///
/// Only a *top-level* transaction — one whose task runs no other transaction —
/// waits here, after taking its own queue, until no transaction runs on an
/// ancestor or a descendant of its governor. A nested transaction (started
/// from inside another, rules 3–5 of ``Transaction``) never waits: it is
/// admitted if it overlaps only transactions of its own chain, and otherwise
/// handed back to its chain and dispatched again when the chain's innermost
/// transaction ends (at the latest it becomes top-level). What a waiting
/// transaction waits for is a running transaction, which never waits here
/// again, or a *pending* one (waiting for its descendants), which waits only
/// for running ones: a pending transaction that finds another reason to wait
/// (a tree to adopt is busy) stops being pending first. So no cycle of waits
/// can form.
enum HierarchyExclusion {
  /// What `leave` must undo.
  struct Admission: Sendable {
    let slot: HierarchySlot
    let mark: TreeBusyMark
    /// The root slots of the trees this transaction adopts.
    let adopted: [HierarchySlot]
  }

  /// Runs `body` with the link domains of `governor`, `adopting`, the
  /// governors of `chain` and every slot `marks` touch held.
  @inline(__always)
  static func withLinks<Result>(
    of governor: Governor, _ adopting: [any ViewController], chain: [TransactionContext] = [],
    touching marks: [TreeBusyMark] = [], _ body: () throws -> Result
  ) rethrows -> Result {
    if chain.isEmpty, marks.isEmpty {
      switch adopting.count {
      case 0: return try TreeLock.withLock(governor.member, body)
      case 1: return try TreeLock.withLock(governor.member, adopting[0].node, body)
      default: break
      }
    }
    let members = [governor.member] + adopting.map { $0.node as any LinkGuarded } + chain.map(\.governor.member)
    return try withLinks(members, touching: marks, body)
  }

  /// Runs `body` with the link domains of `members` and of every slot
  /// `marks` touch (their trees and counted ancestors) held. A mark's slots
  /// are read before their domains are taken and compared after: they change
  /// only under the domain of one of them, so once the comparison holds they
  /// stay as read; otherwise this takes the domains again.
  static func withLinks<Result>(
    _ members: [any LinkGuarded], touching marks: [TreeBusyMark], _ body: () throws -> Result
  ) rethrows -> Result {
    if marks.isEmpty { return try TreeLock.withLock(members, body) }
    while true {
      let touched = marks.map(\.slots)
      let all = members + touched.joined().map { $0 as any LinkGuarded }
      var result: Result?
      try TreeLock.withLock(all) {
        guard zip(marks, touched).allSatisfy({ $0.touches(exactly: $1) }) else { return }
        result = try body()
      }
      if let result { return result }
    }
  }

  /// Under the link lock: the slots of the controllers among `adopting` that
  /// are roots of trees of their own (a controller already linked somewhere
  /// is not adopted whole: linking it is refused or is a move).
  static func _adoptedTrees(_ adopting: [any ViewController]) -> [HierarchySlot] {
    adopting.compactMap { controller in
      let node = controller.node
      // A controller still in a removal, or torn down, is refused by the
      // transaction's own checks: no reason to wait for its tree.
      guard node._parent == nil, node._presenting == nil, node._window == nil, node._departure == nil, !node._isTornDown
      else { return nil }
      return node.hierarchy
    }
  }

  /// Under the link lock: an adopted tree in which something runs, waits or
  /// is being adopted by another transaction.
  private static func _busyAdoptedTree(_ adopted: [HierarchySlot]) -> HierarchySlot? {
    adopted.first { !$0._state.treeMarks.isEmpty || $0._state.adoptions > 0 }
  }

  /// Under the link lock: makes every admission of `tree` counted in its
  /// ancestors' `activeBelow`, so that the slots tell the whole truth.
  private static func _countAncestors(in tree: HierarchySlot) {
    for mark in tree._state.treeMarks where mark.ancestors == nil {
      guard let governor = mark.governor else { continue }
      let ancestors = governor._ancestorSlots()
      for ancestor in ancestors { ancestor._state.activeBelow += 1 }
      mark.ancestors = ancestors
    }
  }

  /// Under the link lock, *before* a link change moves a subtree from the
  /// tree of slot `old` to the tree of slot `new` (a root joins a parent or
  /// a window, a child or a window's root leaves): counts the ancestors of
  /// `old`'s admissions with the links they were admitted under, and makes
  /// `new` busy while they run. O(1) when `old`'s tree is idle.
  static func _treeChanged(from old: HierarchySlot, to new: HierarchySlot) {
    guard old !== new, !old._state.treeMarks.isEmpty else { return }
    _countAncestors(in: old)
    for mark in old._state.treeMarks { mark.add(to: new) }
  }

  /// Admits a nested transaction (one started inside `chain`) only if it
  /// overlaps no running transaction but those of its own chain; returns nil
  /// otherwise, without waiting: the caller hands the request back to the
  /// chain, to be dispatched when its innermost transaction ends.
  static func tryEnterNested(_ governor: Governor, adopting: [any ViewController] = [], chain: [TransactionContext])
    -> Admission?
  {
    withLinks(of: governor, adopting, chain: chain) { () -> Admission? in
      let adopted = _adoptedTrees(adopting)
      if _busyAdoptedTree(adopted) != nil || governor._treeSlot._state.adoptions > 0 { return nil }
      _countAncestors(in: governor._treeSlot)
      let slot = governor._slot
      let ancestors = governor._ancestorSlots()
      for ancestor in ancestors {
        let mine = chain.count { $0.governor._slot === ancestor }
        if ancestor._state.running > mine { return nil }
      }
      let mineBelow = chain.count { $0.governor._slot !== slot && governor._isAncestorOrSelf(of: $0.governor) }
      if slot._state.activeBelow > mineBelow { return nil }
      return admit(governor, tree: governor._treeSlot, ancestors: ancestors, adopted: adopted)
    }
  }

  /// Admits a top-level transaction, waiting while it would overlap another.
  /// If `cancellable` (the requesting task itself waits, R3), throws
  /// `CancellationError` when the task is cancelled before admission; then
  /// nothing was admitted. Requests run on others' behalf (queued jobs, the
  /// second step of a move) are not cancellable: they were promised to run.
  nonisolated(nonsending) static func enter(
    _ governor: Governor, adopting: [any ViewController] = [], cancellable: Bool
  ) async throws
    -> Admission
  {
    // Uncontended (the common case): admit without a continuation.
    if let admission = withLinks(
      of: governor, adopting,
      { () -> Admission? in
        let tree = governor._treeSlot
        let adopted = _adoptedTrees(adopting)
        guard _busyAdoptedTree(adopted) == nil, tree._state.adoptions == 0 else { return nil }
        if tree._state.treeMarks.isEmpty {
          // Nothing runs or waits anywhere in this tree: no walk to the root.
          return admit(governor, tree: tree, ancestors: nil, adopted: adopted)
        }
        if governor._isInDeparture { return nil }
        _countAncestors(in: tree)
        let ancestors = governor._ancestorSlots()
        guard governor._slot._state.activeBelow == 0,
          !ancestors.contains(where: { $0._state.running > 0 || $0._state.pending > 0 })
        else {
          return nil
        }
        return admit(governor, tree: tree, ancestors: ancestors, adopted: adopted)
      })
    {
      return admission
    }
    if cancellable { try Task.checkCancellation() }
    let waiter = ExclusionWaiter()
    defer {
      // Cancelled while marked pending: requests below that waited behind
      // this one must check again, or they would wait for a transaction that
      // will never run.
      let woken = withLinks(of: governor, [], touching: [waiter.mark]) {
        () -> [UnsafeContinuation<ExclusionStep, Never>] in
        guard waiter.isPending else { return [] }
        return waiter.setPending(false, on: governor._slot) + governor._slot._wakeIfIdle()
      }
      for continuation in woken { continuation.resume(returning: .retry) }
    }
    while true {
      let step = await withTaskCancellationHandler {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<ExclusionStep, Never>) in
          var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
          var observed: [UnsafeContinuation<Void, Never>] = []
          // A pending waiter's mark may have been carried into trees of
          // other domains (see ``TreeBusyMark``); it may stop being pending.
          let immediate = withLinks(of: governor, adopting, touching: [waiter.mark]) { () -> ExclusionStep? in
            if waiter.isCancelled { return .cancelled }
            let tree = governor._treeSlot
            let adopted = _adoptedTrees(adopting)
            // A tree this transaction adopts must be idle, and this one must
            // not be under adoption by another.
            func adoptionBlocker() -> HierarchySlot? {
              _busyAdoptedTree(adopted) ?? (tree._state.adoptions > 0 ? tree : nil)
            }
            var busy = adoptionBlocker()
            if busy != nil, waiter.isPending {
              // It no longer waits for its descendants: it stops being
              // pending. Its pending mark may have been carried into the very
              // tree it would wait for (that tree left this one meanwhile),
              // and would keep that tree busy for ever.
              woken += waiter.setPending(false, on: governor._slot) + governor._slot._wakeIfIdle()
              busy = adoptionBlocker()
            }
            if let busy {
              return waiter.register(continuation, with: busy, observed: &observed) ? nil : .cancelled
            }
            // A removal that unlinked this subtree (or a part above it) is
            // still delivering its hooks, from a container no longer above it:
            // wait until it leaves this tree (its mark was carried here), not
            // pending meanwhile (its own mark would keep the tree busy).
            if governor._isInDeparture, !tree._state.treeMarks.isEmpty {
              if waiter.isPending {
                woken += waiter.setPending(false, on: governor._slot) + governor._slot._wakeIfIdle()
              }
              if !tree._state.treeMarks.isEmpty {
                return waiter.register(continuation, with: tree, observed: &observed) ? nil : .cancelled
              }
            }
            _countAncestors(in: tree)
            let slot = governor._slot
            let ancestors = governor._ancestorSlots()
            if let busy = ancestors.first(where: { $0._state.running > 0 || $0._state.pending > 0 }) {
              return waiter.register(continuation, with: busy, observed: &observed) ? nil : .cancelled
            }
            if slot._state.activeBelow > 0 {
              if !waiter.isPending { waiter.setPending(true, on: slot, tree: tree) }
              return waiter.register(continuation, with: slot, observed: &observed) ? nil : .cancelled
            }
            if waiter.isPending { woken += waiter.setPending(false, on: slot) }
            return .admitted(admit(governor, tree: tree, ancestors: ancestors, adopted: adopted))
          }
          if let immediate { continuation.resume(returning: immediate) }
          for other in woken { other.resume(returning: .retry) }
          for observer in observed { observer.resume() }
        }
      } onCancel: {
        guard cancellable else { return }
        waiter.cancel()?.resume(returning: .cancelled)
      }
      switch step {
      case .admitted(let admission): return admission
      case .retry: continue
      case .cancelled: throw CancellationError()
      }
    }
  }

  /// Under the link lock, with `ancestors` read in the same critical section
  /// (nil: the tree is idle, they are counted later if needed).
  private static func admit(
    _ governor: Governor, tree: HierarchySlot, ancestors: [HierarchySlot]?, adopted: [HierarchySlot]
  ) -> Admission {
    let slot = governor._slot
    slot._state.running += 1
    if let ancestors {
      for ancestor in ancestors { ancestor._state.activeBelow += 1 }
    }
    let mark = TreeBusyMark(governor: governor, ancestors: ancestors, tree: tree)
    tree._state.treeMarks.append(mark)
    for root in adopted { root._state.adoptions += 1 }
    return Admission(slot: slot, mark: mark, adopted: adopted)
  }

  static func leave(_ admission: Admission) {
    let mark = admission.mark
    func end(taken: (trees: SlotList, ancestors: [HierarchySlot]?)) -> [UnsafeContinuation<ExclusionStep, Never>] {
      var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
      admission.slot._state.running -= 1
      for root in admission.adopted {
        root._state.adoptions -= 1
        // Transactions of that tree waiting while it was being adopted.
        if root._state.adoptions == 0 { woken += root._wakeAll() }
      }
      let ancestors = taken.ancestors ?? []
      // Transactions waiting for a tree this one leaves idle, to adopt it.
      woken += mark._removeFrom(taken.trees)
      if admission.slot._state.running == 0 { woken += admission.slot._wakeAll() }
      for ancestor in ancestors {
        ancestor._state.activeBelow -= 1
        if ancestor._state.activeBelow == 0 { woken += ancestor._wakeAll() }
      }
      return woken
    }
    // The common case: everything it touches is in its governor's domain
    // (holding that lock, the mark's lists cannot change under us).
    let woken =
      TreeLock.withLock(admission.slot) { () -> [UnsafeContinuation<ExclusionStep, Never>]? in
        let domain = admission.slot.linkDomain
        guard admission.adopted.allSatisfy({ $0.linkDomain == domain }), let taken = mark.take(ifAllIn: domain) else {
          return nil
        }
        return end(taken: taken)
      }
      // Its mark may be in trees of other domains by now (see
      // ``TreeBusyMark``); the trees it adopted are in theirs until linked.
      ?? withLinks([admission.slot] + admission.adopted, touching: [mark]) { end(taken: mark.take()) }
    // Woken waiters check again (they may find another reason to wait).
    for continuation in woken { continuation.resume(returning: .retry) }
  }
}

extension Governor {
  /// The object whose link domain guards this governor's links.
  var member: any LinkGuarded {
    switch self {
    case .controller(let controller): controller.node
    case .window(let window): window
    }
  }

  /// Its exclusion slot.
  var _slot: HierarchySlot {
    switch self {
    case .controller(let controller): controller.node.hierarchy
    case .window(let window): window.hierarchy
    }
  }

  /// Under the link lock: the slot standing for this governor's whole tree
  /// (its hosting window's, else its root controller's). O(1), cached.
  var _treeSlot: HierarchySlot {
    switch self {
    case .controller(let controller): controller.node._position().treeSlot
    case .window(let window): window.hierarchy
    }
  }

  /// Under the link lock: the slots of every ancestor, nearest first, up to
  /// the hosting window.
  func _ancestorSlots() -> [HierarchySlot] {
    guard case .controller(let controller) = self else { return [] }
    var slots: [HierarchySlot] = []
    var node = controller.node
    while let parent = node._treeParent {
      slots.append(parent.hierarchy)
      node = parent
    }
    if let window = node._window { slots.append(window.hierarchy) }
    return slots
  }
}

extension HierarchySlot {
  /// Under the link lock: if nothing runs or waits as pending here any more,
  /// unregisters the transactions below that waited for that, returning their
  /// continuations.
  func _wakeIfIdle() -> [UnsafeContinuation<ExclusionStep, Never>] {
    _state.pending == 0 && _state.running == 0 ? _wakeAll() : []
  }

  /// Under the link lock: unregisters every waiter, returning their continuations.
  func _wakeAll() -> [UnsafeContinuation<ExclusionStep, Never>] {
    if _state.waiters.isEmpty { return [] }
    let all = _state.waiters
    _state.waiters.removeAll()
    return all.compactMap { $0._woken() }
  }
}

extension ExclusionWaiter {
  /// Under the lock of `slot`'s domain: registers it there, unless it was
  /// cancelled (then returns false, registering nothing). Appends to
  /// `observed` the test observers this satisfies, to be resumed after the
  /// lock.
  func register(
    _ continuation: UnsafeContinuation<ExclusionStep, Never>, with slot: HierarchySlot,
    observed: inout [UnsafeContinuation<Void, Never>]
  ) -> Bool {
    // Checked with the registration, under the waiter's lock: a
    // cancellation either comes first and is seen here, or finds the waiter
    // registered and unregisters it.
    let registered = state.withLock { state in
      guard !state.isCancelled else { return false }
      state.continuation = continuation
      state.slot = slot
      return true
    }
    guard registered else { return false }
    slot._state.waiters.append(self)
    observed += slot._state.waiterObservers.takeSatisfied(by: slot._state.waiters.count)
    return true
  }

  /// Under the lock of the slot's domain (see ``HierarchySlot/_wakeAll()``):
  /// forgets its registration, returning its continuation.
  func _woken() -> UnsafeContinuation<ExclusionStep, Never>? {
    state.withLock { state in
      state.slot = nil
      defer { state.continuation = nil }
      return state.continuation
    }
  }

  /// Under the link lock: marks (or unmarks) this waiter pending on its own
  /// slot, counting it in its tree's `treeMarks` meanwhile, so that new
  /// top-level transactions below take the slow path and wait behind it.
  /// Unmarking needs the domains of every tree its mark is in. Returns the
  /// waiters of trees this leaves idle (see
  /// ``TreeBusyMark/removeFromTrees()``), to be resumed after the lock.
  @discardableResult
  func setPending(_ pending: Bool, on slot: HierarchySlot, tree: HierarchySlot? = nil)
    -> [UnsafeContinuation<ExclusionStep, Never>]
  {
    state.withLock { $0.isPending = pending }
    if pending {
      slot._state.pending += 1
      if let tree { mark.add(to: tree) }
      return []
    }
    slot._state.pending -= 1
    return mark.removeFromTrees()
  }

  /// With no lock held (a cancellation handler): marks the waiter cancelled
  /// and, if it is registered with a slot, unregisters it, returning its
  /// continuation. A waiter that is not registered sees the mark before it
  /// registers again.
  func cancel() -> UnsafeContinuation<ExclusionStep, Never>? {
    enum Outcome {
      case done(UnsafeContinuation<ExclusionStep, Never>?)
      case moved
    }
    while true {
      let registered = state.withLock { state -> HierarchySlot? in
        state.isCancelled = true
        return state.slot
      }
      guard let slot = registered else { return nil }
      let outcome = TreeLock.withLock(slot) { () -> Outcome in
        let continuation = state.withLock { state -> UnsafeContinuation<ExclusionStep, Never>?? in
          // Woken and registered elsewhere meanwhile: look again.
          guard state.slot === slot else { return .none }
          state.slot = nil
          defer { state.continuation = nil }
          return .some(state.continuation)
        }
        guard let continuation else { return .moved }
        slot._state.waiters.removeAll { $0 === self }
        return .done(continuation)
      }
      if case .done(let continuation) = outcome { return continuation }
    }
  }
}
