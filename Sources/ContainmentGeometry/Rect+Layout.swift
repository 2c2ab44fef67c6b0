extension Rect {
  /// The value of a layout attribute of this rectangle.
  func value(of attribute: LayoutAttribute) -> Double {
    switch attribute {
    case .left: minX
    case .right: maxX
    case .top: minY
    case .bottom: maxY
    case .width: width
    case .height: height
    case .centerX: midX
    case .centerY: midY
    }
  }

  /// Equality that treats NaN components as equal to NaN, so propagation can settle on them.
  func isIdentical(to other: Rect) -> Bool {
    func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
    return same(minX, other.minX) && same(minY, other.minY) && same(width, other.width)
      && same(height, other.height)
  }
}
