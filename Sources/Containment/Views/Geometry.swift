/// A location in a two-dimensional coordinate space whose y axis points down.
///
/// Plain value type; safe to share across concurrency domains.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate; grows downwards.
  public var y: Double

  /// Creates a point from its coordinates.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin, `(0, 0)`.
  public static let zero = Point(x: 0, y: 0)

  /// The coordinates, e.g. `"(x: 10, y: 2.5)"`.
  public var description: String {
    "(x: \(geometryText(x)), y: \(geometryText(y)))"
  }
}

/// A two-dimensional extent.
///
/// Components are not validated; layout code keeps them non-negative. Plain value type; safe to
/// share across concurrency domains.
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The horizontal extent.
  public var width: Double
  /// The vertical extent.
  public var height: Double

  /// Creates a size from its extents.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The empty size, `0 × 0`.
  public static let zero = Size(width: 0, height: 0)

  /// The extents, e.g. `"(w: 100, h: 50)"`.
  public var description: String {
    "(w: \(geometryText(width)), h: \(geometryText(height)))"
  }
}

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

  /// Origin and extent, e.g. `"(x: 0, y: 0, w: 100, h: 50)"`.
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

/// Distances inset from each edge of a rectangle, e.g. margins or padding.
///
/// Plain value type; safe to share across concurrency domains.
public struct EdgeInsets: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The inset from the top edge.
  public var top: Double
  /// The inset from the left edge.
  public var left: Double
  /// The inset from the bottom edge.
  public var bottom: Double
  /// The inset from the right edge.
  public var right: Double

  /// Creates insets from the four edge distances; each defaults to zero.
  public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// Creates insets with the same distance on all four edges.
  public init(all inset: Double) {
    self.init(top: inset, left: inset, bottom: inset, right: inset)
  }

  /// No inset on any edge.
  public static let zero = EdgeInsets()

  /// The four distances, e.g. `"(top: 8, left: 16, bottom: 8, right: 16)"`.
  public var description: String {
    "(top: \(geometryText(top)), left: \(geometryText(left)), "
      + "bottom: \(geometryText(bottom)), right: \(geometryText(right)))"
  }
}

/// Formats a coordinate without a trailing `.0` when it is a whole number (`100`, `2.5`, `-3`).
private func geometryText(_ value: Double) -> String {
  if value.rounded() == value, abs(value) < 1e15 {
    return String(Int64(value))
  }
  return String(value)
}
