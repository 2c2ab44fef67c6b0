/// Where a container puts a child's root view inside its own view: edge
/// insets from the container's bounds, or a fixed width from the left inset.
///
/// Installed as layout constraints on the container's view (so a later
/// `layoutIfNeeded()` keeps the child in place when the container is resized)
/// and applied to the frame at once.
public struct ChildPlacement: Sendable, Hashable {
  /// Insets from the container's bounds.
  public var insets: EdgeInsets
  /// If set, the child is this wide and `insets.right` is ignored.
  public var width: Double?

  /// The whole of the container's bounds.
  public static let fill = ChildPlacement()

  /// A placement `insets` inside the container's bounds, `width` wide if given.
  public init(insets: EdgeInsets = .zero, width: Double? = nil) {
    self.insets = insets
    self.width = width
  }

  /// The frame this placement gives inside `bounds`.
  func frame(in bounds: Rect) -> Rect {
    let x = bounds.minX + insets.left
    let y = bounds.minY + insets.top
    let height = max(0, bounds.height - insets.top - insets.bottom)
    let width = self.width ?? max(0, bounds.width - insets.left - insets.right)
    return Rect(x: x, y: y, width: width, height: height)
  }

  /// Appends the constraints pinning `item` inside `container` (its
  /// superview) to `constraints` (the container view's own list: no
  /// temporary array).
  func appendConstraints(
    item: ObjectIdentifier, container: ObjectIdentifier, to constraints: inout [LayoutConstraint<ObjectIdentifier>]
  ) {
    constraints.append(LayoutConstraint(item: item, attribute: .left, relatedItem: container, constant: insets.left))
    constraints.append(LayoutConstraint(item: item, attribute: .top, relatedItem: container, constant: insets.top))
    constraints.append(
      LayoutConstraint(item: item, attribute: .bottom, relatedItem: container, constant: -insets.bottom))
    if let width {
      constraints.append(LayoutConstraint(item: item, attribute: .width, constant: width))
    } else {
      constraints.append(
        LayoutConstraint(item: item, attribute: .right, relatedItem: container, constant: -insets.right))
    }
  }
}
