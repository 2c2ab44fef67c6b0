/// An axis-aligned rectangle given by its top-left ``origin`` and its ``size``.
///
/// The edges are derived as `minX = origin.x`, `maxX = origin.x + width` (likewise for y); sizes
/// are expected to be non-negative. Plain value type; safe to share across concurrency domains.
public struct Rect: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The top-left corner.
  public var origin: Point
  /// The extent from ``origin`` rightwards and downwards.
  public var size: Size

  /// Creates a rectangle from its top-left corner and extent.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from the coordinates of its top-left corner and its extent.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(origin: .zero, size: .zero)

  /// The left edge, `origin.x`.
  public var minX: Double { origin.x }
  /// The horizontal center, `origin.x + width / 2`.
  public var midX: Double { origin.x + size.width / 2 }
  /// The right edge, `origin.x + width`.
  public var maxX: Double { origin.x + size.width }
  /// The top edge, `origin.y`.
  public var minY: Double { origin.y }
  /// The vertical center, `origin.y + height / 2`.
  public var midY: Double { origin.y + size.height / 2 }
  /// The bottom edge, `origin.y + height`.
  public var maxY: Double { origin.y + size.height }
  /// The horizontal extent, `size.width`.
  public var width: Double { size.width }
  /// The vertical extent, `size.height`.
  public var height: Double { size.height }

  /// Returns the rectangle shrunk by `dx` on the left and right and by `dy` on the top and bottom.
  ///
  /// Negative values grow it. If an inset exceeds half the extent, that extent becomes zero and
  /// the edge collapses onto the rectangle's center line instead of turning negative.
  public func insetBy(dx: Double, dy: Double) -> Rect {
    inset(by: EdgeInsets(top: dy, left: dx, bottom: dy, right: dx))
  }

  /// Returns the rectangle shrunk by `insets` on each side (grown where an inset is negative).
  ///
  /// If the insets on an axis exceed the extent, that extent becomes zero and the collapsed edge
  /// lies where the two inset edges would meet proportionally, never producing a negative size.
  public func inset(by insets: EdgeInsets) -> Rect {
    let horizontal = Self.inset(start: minX, length: width, leading: insets.left, trailing: insets.right)
    let vertical = Self.inset(start: minY, length: height, leading: insets.top, trailing: insets.bottom)
    return Rect(x: horizontal.start, y: vertical.start, width: horizontal.length, height: vertical.length)
  }

  /// Whether `point` lies inside the rectangle.
  ///
  /// Half-open on both axes, `minX <= x < maxX` and `minY <= y < maxY`, so rectangles that share
  /// an edge never both contain a point on it, and an empty rectangle contains nothing.
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// Origin and extent, for example `"(x: 0, y: 0, w: 100, h: 50)"`.
  public var description: String {
    "(x: \(geometryText(origin.x)), y: \(geometryText(origin.y)), "
      + "w: \(geometryText(size.width)), h: \(geometryText(size.height)))"
  }

  private static func inset(
    start: Double,
    length: Double,
    leading: Double,
    trailing: Double
  ) -> (start: Double, length: Double) {
    let remaining = length - leading - trailing
    guard remaining < 0 else {
      return (start + leading, remaining)
    }
    // Collapse to the point splitting the overlap in proportion to the two insets.
    let total = leading + trailing
    let fraction = total > 0 ? min(max(leading / total, 0), 1) : 0.5
    return (start + length * fraction, 0)
  }
}
