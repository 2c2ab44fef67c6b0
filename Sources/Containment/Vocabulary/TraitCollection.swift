/// A horizontal size class (§1).
public enum UserInterfaceSizeClass: Sendable, Hashable, Codable, CustomStringConvertible {
  case compact, regular
  /// A readable description.
  public var description: String { self == .compact ? "compact" : "regular" }
}

/// The trait environment a window carries and hands down its tree (D3).
public struct TraitCollection: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Compact collapses a split view to one column (S2); regular shows both.
  public var horizontalSizeClass: UserInterfaceSizeClass
  /// Traits with the given size class (regular by default).
  public init(horizontalSizeClass: UserInterfaceSizeClass = .regular) {
    self.horizontalSizeClass = horizontalSizeClass
  }
  /// A readable description.
  public var description: String { "traits(h: \(horizontalSizeClass))" }
}
