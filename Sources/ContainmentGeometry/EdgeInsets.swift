/// Distances inset from each edge of a rectangle, such as margins or padding.
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

  /// The four distances, for example `"(top: 8, left: 16, bottom: 8, right: 16)"`.
  public var description: String {
    "(top: \(geometryText(top)), left: \(geometryText(left)), "
      + "bottom: \(geometryText(bottom)), right: \(geometryText(right)))"
  }
}
