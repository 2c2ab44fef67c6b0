/// One of a split controller's two columns.
public enum SplitColumn: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The leading column (a list, a sidebar).
  case primary
  /// The trailing column (the detail).
  case secondary

  /// A readable description.
  public var description: String { self == .primary ? "primary" : "secondary" }
}
