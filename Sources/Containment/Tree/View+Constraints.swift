/// A constraint between views, as ``View`` stores it.
public typealias ViewConstraint = LayoutConstraint<ObjectIdentifier>

extension View {
  /// `self.attribute == multiplier * other.otherAttribute + constant`, where
  /// `other` is this view's superview (read as its bounds) or a sibling.
  ///
  /// Install it with ``addConstraints(_:)`` on a common ancestor (usually the
  /// superview); it takes effect at the next ``layoutIfNeeded()``.
  public func constraint(
    _ attribute: LayoutAttribute,
    equalTo other: View,
    _ otherAttribute: LayoutAttribute? = nil,
    multiplier: Double = 1,
    constant: Double = 0
  ) -> ViewConstraint {
    ViewConstraint(
      item: ObjectIdentifier(self), attribute: attribute, relatedItem: ObjectIdentifier(other),
      relatedAttribute: otherAttribute ?? attribute, multiplier: multiplier, constant: constant)
  }

  /// `self.attribute == constant`: a fixed size, or a fixed position in the
  /// superview's coordinate space.
  public func constraint(_ attribute: LayoutAttribute, equalToConstant constant: Double) -> ViewConstraint {
    ViewConstraint(item: ObjectIdentifier(self), attribute: attribute, constant: constant)
  }

  /// Pins this view's four edges to `other` (its superview), inset by `insets`.
  public func constraints(pinningEdgesTo other: View, insets: EdgeInsets = .zero) -> [ViewConstraint] {
    [
      constraint(.left, equalTo: other, constant: insets.left),
      constraint(.right, equalTo: other, constant: -insets.right),
      constraint(.top, equalTo: other, constant: insets.top),
      constraint(.bottom, equalTo: other, constant: -insets.bottom),
    ]
  }
}
