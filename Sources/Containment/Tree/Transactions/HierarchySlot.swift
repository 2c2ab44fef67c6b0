import ContainmentLocking
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
typealias HierarchySlot = LinkCell<HierarchySlotState>

extension LinkCell<HierarchySlotState> {
  /// An idle slot guarded by `domain`: a copy of its controller's or
  /// window's, moved with it (``TreeLock/join(_:_:into:)``).
  convenience init(domain: Int) {
    self.init(HierarchySlotState(), domain: domain)
  }
}

/// The state of a ``HierarchySlot``.
///
/// Counts are `Int32` so that the state takes 48 bytes and its cell one malloc
/// size class less (every controller has one).
struct HierarchySlotState {
  /// Transactions running on this governor (nested ones included).
  var running: Int32 = 0
  /// Transactions running on strict descendants.
  var activeBelow: Int32 = 0
  /// Top-level transactions here waiting for their descendants to finish:
  /// new top-level transactions below wait behind them (no starvation).
  var pending: Int32 = 0
  /// Tasks waiting for this slot to change.
  var waiters: [ExclusionWaiter] = []
  /// On the slot that stands for a whole tree (``TreePosition/treeSlot``):
  /// the admitted transactions of the tree and the top-level ones waiting as
  /// pending.
  ///
  /// While there are none, a top-level transaction is admitted without walking
  /// to the root (``ExclusionMachine/enterAtOnce(_:_:adopting:)``).
  var treeMarks: [TreeBusyMark] = []
  /// On a root's slot: admitted transactions that will link this tree into
  /// theirs (a window taking it as its root, a container adding it).
  ///
  /// Until they end, no transaction of this tree is admitted: one admitted
  /// before the link would overlap them once linked (R4).
  var adoptions: Int32 = 0
  /// On a root's slot: its tree left another (a removal, a dismissal, a
  /// window's new root) and may still be under that tree's link lock; the
  /// tree's next uncontended top-level transaction gives it a lock of its
  /// own first (``ControllerNode/separateTreeIfItLeftAnother()``, R5).
  var leftATree = false
  /// The package's tests waiting for transactions to wait here
  /// (`waiters(atLeast:)`).
  var waiterObservers = CountObservers()
}

extension LinkCell<HierarchySlotState> {
  /// Under the link lock: if nothing runs or waits as pending here any more,
  /// unregisters the transactions below that waited for that, returning their
  /// continuations.
  func wakeIfIdle(_ held: LinkSection) -> [UnsafeContinuation<ExclusionStep, Never>] {
    self[held].pending == 0 && self[held].running == 0 ? wakeAll(held) : []
  }

  /// Under the link lock: unregisters every waiter, returning their continuations.
  func wakeAll(_ held: LinkSection) -> [UnsafeContinuation<ExclusionStep, Never>] {
    var woken: [UnsafeContinuation<ExclusionStep, Never>] = []
    wakeAll(held, into: &woken)
    return woken
  }

  /// ``wakeAll(_:)``, appending to `woken` (nothing to do, and no array
  /// touched, when nobody waits: the common case of every transaction's end).
  func wakeAll(_ held: LinkSection, into woken: inout [UnsafeContinuation<ExclusionStep, Never>]) {
    if self[held].waiters.isEmpty { return }
    let all = self[held].waiters
    self[held].waiters.removeAll()
    for waiter in all {
      if let continuation = waiter.woken(held) { woken.append(continuation) }
    }
  }
}
