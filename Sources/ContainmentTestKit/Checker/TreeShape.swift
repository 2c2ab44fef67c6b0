import Containment

/// A fixture's tree at a quiescent point, in names: the window's root and,
/// for every watched controller, its parent, children, view, appearance
/// state and presentation links. Two fixtures in the same state have equal
/// shapes.
struct TreeShape: Sendable, Equatable {
  var lines: [String]

  init(window: Window, controllers: [any ViewController], naming: ControllerNaming) {
    lines = ["window root: \(naming.name(window.rootViewController))"]
    for (index, controller) in controllers.enumerated() {
      let view: String
      if let loaded = controller.viewIfLoaded {
        view = loaded.window != nil ? "in window" : loaded.superview != nil ? "installed off screen" : "detached"
      } else {
        view = "not loaded"
      }
      var line =
        "\(naming.names[index]): parent \(naming.name(controller.parent)), "
        + "children [\(controller.children.map { naming.name($0) }.joined(separator: ", "))], "
        + "view \(view), \(controller.appearanceState)"
      if let presented = controller.presentedViewController {
        line += ", presents \(naming.name(presented)) (\(presented.modalPresentationStyle.map { "\($0)" } ?? "?"))"
      }
      lines.append(line)
    }
  }

  /// The lines that differ, this shape's against `other`'s.
  func differences(from other: TreeShape) -> [String] {
    zip(lines, other.lines).filter { $0 != $1 }.map { "\($0.0) (replay: \($0.1))" }
  }
}
