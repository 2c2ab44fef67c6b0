/// What a navigation controller's bar shows: derived from the stack at the
/// instant it is read, so it always follows the top of the stack (during a
/// pop the stack, and so the bar, already reads the revealed controller).
public struct NavigationBarState: Sendable, Hashable, Codable {
  /// The bar's height when it is shown; the children's content area starts below it.
  public static let height: Double = 44

  /// Whether the bar is hidden (``NavigationController/setNavigationBarHidden(_:)``).
  public var isHidden: Bool
  /// The items of the stack, root first.
  public var items: [NavigationItem]
  /// The top item's title.
  public var title: String? { items.last?.title }
  /// The back button's title: the item below the top's `backButtonTitle`,
  /// else its `title`, else "Back"; nil at the root (no back button).
  public var backTitle: String? {
    guard items.count >= 2 else { return nil }
    let previous = items[items.count - 2]
    return previous.backButtonTitle ?? previous.title ?? "Back"
  }

  /// A bar state with the given visibility and items (bottom of the stack first).
  public init(isHidden: Bool, items: [NavigationItem]) {
    self.isHidden = isHidden
    self.items = items
  }
}
