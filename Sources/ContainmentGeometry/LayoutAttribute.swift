/// A geometric property of a view's frame that a ``LayoutConstraint`` can fix.
///
/// Horizontal attributes (`left`, `right`, `width`, `centerX`) and vertical ones (`top`, `bottom`,
/// `height`, `centerY`) are solved independently. Values are read in the coordinate space of the
/// view's superview; y grows downwards, so `top` is the smaller y.
public enum LayoutAttribute: Sendable, Hashable, CaseIterable {
  /// The left edge, `frame.minX`.
  case left
  /// The right edge, `frame.maxX`.
  case right
  /// The top edge, `frame.minY`.
  case top
  /// The bottom edge, `frame.maxY`.
  case bottom
  /// The horizontal extent, `frame.width`.
  case width
  /// The vertical extent, `frame.height`.
  case height
  /// The horizontal center, `frame.midX`.
  case centerX
  /// The vertical center, `frame.midY`.
  case centerY
}
