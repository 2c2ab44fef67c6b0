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

  /// The extents, for example `"(w: 100, h: 50)"`.
  public var description: String {
    "(w: \(geometryText(width)), h: \(geometryText(height)))"
  }
}
