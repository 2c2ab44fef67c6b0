/// A split controller's own bookkeeping.
///
/// Guarded by the link lock (``TreeGuarded``).
struct SplitState {
  /// Weak: see ``SplitViewControllerDelegate``.
  weak var delegate: (any SplitViewControllerDelegate)?
  /// The two columns' controllers (back-links); they count only while they
  /// are children.
  var primaryLink: ControllerBackLink?
  var secondaryLink: ControllerBackLink?
  /// The layout in effect: one column (compact) or two (regular).
  ///
  /// Valid once `isLaidOut`.
  var isCollapsed = false
  var isLaidOut = false
  /// While collapsed, the column shown.
  var shownColumn = SplitColumn.primary

  var primary: (any ViewController)? {
    get { primaryLink?.value }
    set { primaryLink = newValue.map(ControllerBackLink.init) }
  }
  var secondary: (any ViewController)? {
    get { secondaryLink?.value }
    set { secondaryLink = newValue.map(ControllerBackLink.init) }
  }
}
