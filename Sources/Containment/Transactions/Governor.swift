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
  func _isAncestorOrSelf(of other: Governor) -> Bool {
    switch (self, other) {
    case (.window(let a), .window(let b)):
      return a === b
    case (.window(let window), .controller(let controller)):
      return controller.node._hostingWindow() === window
    case (.controller, .window):
      return false
    case (.controller(let a), .controller(let b)):
      return a.node._isAncestorOrSelf(of: b.node)
    }
  }
}
