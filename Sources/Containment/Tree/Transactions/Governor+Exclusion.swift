import ContainmentLocking
import Synchronization

extension Governor {
  /// The object whose link domain guards this governor's links.
  var member: any LinkGuarded {
    switch self {
    case .controller(let controller): controller.node
    case .window(let window): window
    }
  }

  /// Its exclusion slot.
  var slot: HierarchySlot {
    switch self {
    case .controller(let controller): controller.node.hierarchy
    case .window(let window): window.hierarchy
    }
  }

  /// Under the link lock: the slot standing for this governor's whole tree
  /// (its hosting window's, else its root controller's).
  ///
  /// O(1), cached.
  func treeSlot(_ held: LinkSection) -> HierarchySlot {
    switch self {
    case .controller(let controller): controller.node.position(held).treeSlot
    case .window(let window): window.hierarchy
    }
  }

  /// A controller's tree that left another takes a link lock of its own
  /// (``ControllerNode/separateTreeIfItLeftAnother()``); a window's tree
  /// never left one.
  func separateTreeIfItLeftAnother() {
    if case .controller(let controller) = self { controller.node.separateTreeIfItLeftAnother() }
  }

  /// Under the link lock: the slots of every ancestor, nearest first, up to
  /// the hosting window.
  func ancestorSlots(_ held: LinkSection) -> [HierarchySlot] {
    guard case .controller(let controller) = self else { return [] }
    var slots: [HierarchySlot] = []
    var node = controller.node
    while let parent = node[held].treeParent {
      slots.append(parent.hierarchy)
      node = parent
    }
    if let window = node[held].window { slots.append(window.hierarchy) }
    return slots
  }
}
