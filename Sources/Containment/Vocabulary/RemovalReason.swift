/// Why a controller left its parent or its presenter (V4): carried by
/// every `childRemoved` and `dismissed` event.
///
/// A small value with static members rather than an enum, so that a later
/// reason does not break a consumer's `switch`. Encoded as its name.
public struct RemovalReason: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The reason's stable name ("requested", "popped", ...).
  public let name: String

  private init(_ name: String) { self.name = name }

  /// `removeFromParent()` on the child.
  public static let requested = RemovalReason("requested")
  /// A navigation pop: `pop`, `popTo`, `popToRoot`, or a finished interactive pop.
  public static let popped = RemovalReason("popped")
  /// The container's children were replaced: `setViewControllers`, `setTabs`,
  /// a split column, `changeChildren`, or a window's new root.
  public static let replaced = RemovalReason("replaced")
  /// The removal half of a move to another container.
  public static let moved = RemovalReason("moved")
  /// A dismissal, programmatic or interactive.
  public static let dismissed = RemovalReason("dismissed")
  /// The controller was faulted and removed by its supervision policy.
  public static let faulted = RemovalReason("faulted")
  /// The tree was torn down (V3).
  public static let tornDown = RemovalReason("tornDown")
  /// The window a presentation was made in was released: the release took
  /// the presentation off screen, and it ends when its tree is shown in a
  /// window again.
  public static let windowReleased = RemovalReason("windowReleased")

  /// The reason's name.
  public var description: String { name }

  /// Decodes a reason from its name.
  public init(from decoder: any Decoder) throws {
    name = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the reason as its name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}
