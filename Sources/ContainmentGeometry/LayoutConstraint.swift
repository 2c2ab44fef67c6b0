/// A linear equality that positions or sizes one view, solved by ``LayoutSolver``.
///
/// With a related item it reads
/// `item.attribute == multiplier * relatedItem.relatedAttribute + constant`;
/// without one it reads `item.attribute == constant` (``multiplier`` is then ignored), which fixes
/// a size or an absolute position in the superview's coordinate space.
///
/// `Item` identifies views; the runtime uses `ObjectIdentifier` or an id type. The related item
/// may be the item itself, its superview (read as the superview's bounds) or a sibling; see
/// ``LayoutSolver`` for how other relations are reported. Plain value type; safe to share across
/// concurrency domains.
public struct LayoutConstraint<Item: Hashable & Sendable>: Sendable, Hashable, CustomStringConvertible {
  /// The view this constraint positions or sizes.
  public var item: Item
  /// The attribute of ``item`` that the constraint determines.
  public var attribute: LayoutAttribute
  /// The view whose attribute the equality reads, or `nil` for a constant equality.
  public var relatedItem: Item?
  /// The attribute of ``relatedItem`` that the equality reads; ignored without a related item.
  public var relatedAttribute: LayoutAttribute
  /// The factor applied to the related attribute; ignored without a related item.
  public var multiplier: Double
  /// The offset added to the product (or the whole value without a related item).
  public var constant: Double

  /// Creates `item.attribute == multiplier * relatedItem.relatedAttribute + constant`.
  ///
  /// - Parameters:
  ///   - item: The view to position or size.
  ///   - attribute: The attribute of `item` to determine.
  ///   - relatedItem: The view to read from; `nil` (the default) makes the equality
  ///     `item.attribute == constant`.
  ///   - relatedAttribute: The attribute of `relatedItem` to read; `nil` (the default) means the
  ///     same as `attribute`.
  ///   - multiplier: The factor applied to the related attribute; defaults to 1.
  ///   - constant: The offset added; defaults to 0.
  public init(
    item: Item,
    attribute: LayoutAttribute,
    relatedItem: Item? = nil,
    relatedAttribute: LayoutAttribute? = nil,
    multiplier: Double = 1,
    constant: Double = 0
  ) {
    self.item = item
    self.attribute = attribute
    self.relatedItem = relatedItem
    self.relatedAttribute = relatedAttribute ?? attribute
    self.multiplier = multiplier
    self.constant = constant
  }

  /// The equality in readable form, for example `"b.left == a.right + 8"` or
  /// `"a.width == 100"`.
  public var description: String {
    let lhs = "\(item).\(attribute)"
    guard let relatedItem else {
      return "\(lhs) == \(constant)"
    }
    var rhs = "\(relatedItem).\(relatedAttribute)"
    if multiplier != 1 {
      rhs = "\(multiplier) * \(rhs)"
    }
    if constant > 0 {
      rhs += " + \(constant)"
    } else if constant < 0 {
      rhs += " - \(-constant)"
    } else if constant.isNaN {
      rhs += " + nan"
    }
    return "\(lhs) == \(rhs)"
  }
}
