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

  /// The coordinates, for example `"(x: 10, y: 2.5)"`.
  public var description: String {
    "(x: \(geometryText(x)), y: \(geometryText(y)))"
  }
}
