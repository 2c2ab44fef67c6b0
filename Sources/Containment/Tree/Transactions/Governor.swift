import ContainmentLocking
/// Something that owns a transaction queue and a place in a tree: a
/// controller acting as a container, or a window hosting a root controller.
enum Governor: Sendable {
  case controller(any ViewController)
  case window(Window)

  var queue: TransactionQueue {
    switch self {
    case .controller(let controller): controller.node.queue
    case .window(let window): window.queue
    }
  }

  /// Under the link lock: true if `self` governs `other` or one of its ancestors
  /// (a window is above every controller of the tree it hosts).
  func isAncestorOrSelf(_ held: LinkSection, of other: Governor) -> Bool {
    switch (self, other) {
    case (.window(let a), .window(let b)):
      return a === b
    case (.window(let window), .controller(let controller)):
      return controller.node.hostingWindow(held) === window
    case (.controller, .window):
      return false
    case (.controller(let a), .controller(let b)):
      return a.node.isAncestorOrSelf(held, of: b.node)
    }
  }

  /// Under the link lock: whether a running transaction may still be
  /// delivering hooks to this governor's controller: it is appearing or
  /// disappearing, or it (or an ancestor) was unlinked by a removal whose
  /// `didMove(toParent: nil)` has not been delivered yet.
  ///
  /// A nested request onto such a container would cut into that transaction
  /// (R2), so it is deferred. A window is never mid-change.
  func isMidChange(_ held: LinkSection) -> Bool {
    guard case .controller(let controller) = self else { return false }
    let node = controller.node
    switch node[held].appearance.machine.state {
    case .appearing, .disappearing: return true
    case .appeared, .disappeared: return isInDeparture(held)
    }
  }

  /// Under the link lock: whether this governor's controller (or an
  /// ancestor) was unlinked by a removal whose `didMove(toParent: nil)` has
  /// not been delivered yet.
  ///
  /// That removal runs on a container that is no longer above it, so walking
  /// its ancestors does not find it. O(depth).
  func isInDeparture(_ held: LinkSection) -> Bool {
    guard case .controller(let controller) = self else { return false }
    var current: ControllerNode? = controller.node
    while let candidate = current {
      if candidate[held].eventRouting.departure != nil { return true }
      current = candidate[held].treeParent
    }
    return false
  }
}

extension Governor {
  /// Under the link lock: `controller` and every governor above it, nearest
  /// first — its parents and presenters, then the window its root is the
  /// root of, if any.
  ///
  /// The last is the top of its tree. What a fault policy's action on `controller` may act on, now or after
  /// a part of the tree is cut off: every one of them counts the action
  /// while it is deferred. O(depth).
  static func path(_ held: LinkSection, from controller: any ViewController) -> [Governor] {
    var path: [Governor] = [.controller(controller)]
    var root = controller
    while let above = root.node[held].parent ?? root.node[held].presenting {
      path.append(.controller(above))
      root = above
    }
    if let window = root.node[held].window, window[held].rootViewController === root { path.append(.window(window)) }
    return path
  }

  /// Under the link lock: counts (`delta` 1) or uncounts (-1) a request
  /// deferred onto this governor's queue (``Transaction``, rule 4), from
  /// the moment it is deferred until it has been dispatched: until then,
  /// its tree is not idle (``IdleWaiters``).
  func countDeferred(_ held: LinkSection, _ delta: Int32) {
    switch self {
    case .controller(let controller): controller.node[held].deferredRequests += delta
    case .window(let window): window[held].deferredRequests += delta
    }
  }
}
