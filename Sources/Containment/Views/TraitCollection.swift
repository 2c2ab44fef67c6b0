/// A horizontal size class (SPEC §1).
public enum UserInterfaceSizeClass: Sendable, Hashable, Codable, CustomStringConvertible {
  case compact, regular
  public var description: String { self == .compact ? "compact" : "regular" }
}

/// The trait environment a window carries and hands down its tree (SPEC D3).
public struct TraitCollection: Sendable, Hashable, Codable, CustomStringConvertible {
  public var horizontalSizeClass: UserInterfaceSizeClass
  public init(horizontalSizeClass: UserInterfaceSizeClass = .regular) {
    self.horizontalSizeClass = horizontalSizeClass
  }
  public var description: String { "traits(h: \(horizontalSizeClass))" }
}
