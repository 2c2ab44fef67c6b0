/// What a navigation controller shows in its bar for one controller of its
/// stack: UIKit's `UINavigationItem`, reduced to its titles.
///
/// Every controller has one (``ViewController/navigationItem``), set by the
/// controller itself or by whoever builds it; the bar follows the top of the
/// stack (``NavigationBarState``).
public struct NavigationItem: Sendable, Hashable, Codable {
  /// The title shown while the controller is on top.
  public var title: String?
  /// The title of the back button shown while the controller is *just below*
  /// the top; nil falls back to ``title``, then to "Back".
  public var backButtonTitle: String?

  /// An item with an optional title and back-button title.
  public init(title: String? = nil, backButtonTitle: String? = nil) {
    self.title = title
    self.backButtonTitle = backButtonTitle
  }
}
