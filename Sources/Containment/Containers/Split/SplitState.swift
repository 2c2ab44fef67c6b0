/// A split controller's own bookkeeping. Guarded by the link lock
/// (``TreeGuarded``).
struct SplitState {
  /// Weak: see ``SplitViewControllerDelegate``.
  weak var delegate: (any SplitViewControllerDelegate)?
  /// The two columns' controllers; they count only while they are children.
  weak var primary: (any ViewController)?
  weak var secondary: (any ViewController)?
  /// The layout in effect: one column (compact) or two (regular). Valid once
  /// `isLaidOut`.
  var isCollapsed = false
  var isLaidOut = false
  /// While collapsed, the column shown.
  var shownColumn = SplitColumn.primary
}
