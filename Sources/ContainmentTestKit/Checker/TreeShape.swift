import Containment

/// A fixture's tree at a quiescent point, in positions of the watched
/// controllers: the window's root and, for every watched controller, its
/// parent, children, view, appearance state and what it presents.
///
/// Two fixtures in the same state have equal shapes.
struct TreeShape: Sendable, Equatable {
  /// Where a controller's root view is.
  enum ViewPlace: Sendable, Equatable, CustomStringConvertible {
    case notLoaded, detached, offScreen, inWindow
    var description: String {
      switch self {
      case .notLoaded: "not loaded"
      case .detached: "detached"
      case .offScreen: "installed off screen"
      case .inWindow: "in the window"
      }
    }
  }

  /// One watched controller; other controllers are `-1`, none is nil.
  struct Node: Sendable, Equatable {
    var parent: Int?
    var children: [Int]
    var view: ViewPlace
    var appearance: AppearanceState
    var presented: Int?
    var style: PresentationStyle?
  }

  var root: Int?
  var nodes: [Node]

  init(window: Window, controllers: [any ViewController], naming: ControllerNaming) {
    func position(_ controller: (any ViewController)?) -> Int? {
      controller.map { naming.index(of: $0.node.id) ?? -1 }
    }
    root = position(window.rootViewController)
    nodes = controllers.map { controller in
      let view: ViewPlace
      if let loaded = controller.viewIfLoaded {
        view = loaded.window != nil ? .inWindow : loaded.superview != nil ? .offScreen : .detached
      } else {
        view = .notLoaded
      }
      let presented = controller.presentedViewController
      return Node(
        parent: position(controller.parent), children: controller.children.map { position($0) ?? -1 }, view: view,
        appearance: controller.appearanceState, presented: position(presented),
        style: presented?.modalPresentationStyle)
    }
  }

  /// `node` in words, with `naming`'s names.
  private static func describe(_ node: Node, naming: ControllerNaming) -> String {
    func name(_ position: Int?) -> String {
      guard let position else { return "nil" }
      return position >= 0 ? naming.names[position] : "?"
    }
    var text =
      "parent \(name(node.parent)), children [\(node.children.map { name($0) }.joined(separator: ", "))], "
      + "view \(node.view), \(node.appearance)"
    if let presented = node.presented {
      text += ", presents \(name(presented))\(node.style.map { " (\($0))" } ?? "")"
    }
    return text
  }

  /// What differs, this shape against the replay's `other`, in words.
  func differences(from other: TreeShape, naming: ControllerNaming) -> [String] {
    var differences: [String] = []
    if root != other.root {
      let name = { (position: Int?) in position.map { $0 >= 0 ? naming.names[$0] : "?" } ?? "nil" }
      differences.append("the window's root is \(name(root)) (replay: \(name(other.root)))")
    }
    for (index, (node, replayed)) in zip(nodes, other.nodes).enumerated() where node != replayed {
      differences.append(
        "\(naming.names[index]): \(Self.describe(node, naming: naming)) (replay: \(Self.describe(replayed, naming: naming)))"
      )
    }
    return differences
  }
}
