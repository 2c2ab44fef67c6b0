import ContainmentLocking
import Synchronization

/// What a window's release does to the tree it showed, and what showing that
/// tree in another window later undoes.
extension Window {
  /// How many presented controllers released windows left in trees that are
  /// in no window, not yet ended by showing their tree in another window.
  ///
  /// An over-count (such a presentation ended another way) only costs a walk;
  /// an under-count cannot happen: each is counted under the link lock before
  /// its tree can be shown again.
  static let presentationsOfReleasedWindows = Atomic<Int>(0)

  /// Under the link lock: what releasing the window that showed `root` does,
  /// to its whole tree, presented controllers included.
  ///
  /// A controller in the middle of a transition (a will-hook delivered, its
  /// did-hook not yet) is left to finish it, and is off screen once it has.
  static func takeOffScreenWithoutHooks(_ held: LinkSection, _ root: any ViewController) {
    root.node.becameRoot(held)
    for controller in TreeWalk.stopOrder(held, from: root).reversed() {
      let node = controller.node
      if node[held].presenting != nil { presentationsOfReleasedWindows.add(1, ordering: .relaxed) }
      guard node[held].appearance.machine.takenOffScreen() else { continue }
      node[held].appearance.isMovingToParent = false
      node[held].appearance.isMovingFromParent = false
      node.events.updateReported { $0.appearance = .disappeared }
    }
  }

  /// Presentations over `root`'s tree were made in a window that has since
  /// been released (a presentation belongs to the window it was made in,
  /// §10): they end before the tree is shown again, top first, with no hooks
  /// (the release took them off screen), each presenter reporting
  /// `dismissed` with reason ``RemovalReason/windowReleased``.
  func endPresentationsOfAReleasedWindow(over root: any ViewController, context: TransactionContext) async {
    // Only a released window leaves presentations in a tree that is in no
    // window (presenting needs one): while none was left anywhere, the walk
    // of the whole tree is skipped (it was a tenth of a large tree's
    // appearance).
    guard Window.presentationsOfReleasedWindows.load(ordering: .relaxed) > 0 else { return }
    let presented = TreeLock.withLock(root.node) { held in
      TreeWalk.stopOrder(held, from: root).filter { $0.node[held].presenting != nil }
    }
    // One at a time, so that each presenter's event still reaches the
    // tree streams of those above it.
    for controller in presented {
      guard let ended = TreeLock.withLock(root.node, controller.node, { held in controller.node.endPresentation(held) })
      else {
        continue
      }
      Window.presentationsOfReleasedWindows.subtract(1, ordering: .relaxed)
      ended.presenter.emit(
        .dismissed(controller.node.id, style: ended.style, reason: .windowReleased), transaction: context.id)
    }
  }
}
