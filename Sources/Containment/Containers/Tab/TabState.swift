/// A tab controller's own bookkeeping besides its tabs (the tabs *are* its
/// children).
///
/// Guarded by the link lock (``TreeGuarded``).
struct TabState {
  /// Weak: see ``TabBarControllerDelegate``.
  weak var delegate: (any TabBarControllerDelegate)?
  /// The selected child; counts only while it is still a child.
  ///
  /// A back-link, so a child removed behind the tab controller's back is not
  /// kept alive.
  var selectedLink: ControllerBackLink?

  var selected: (any ViewController)? {
    get { selectedLink?.value }
    set { selectedLink = newValue.map(ControllerBackLink.init) }
  }
}
