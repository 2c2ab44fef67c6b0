/// A controller's part in modal presentation (§10). Guarded by the link
/// lock; most controllers never present or are presented, so the node keeps
/// it out of line.
struct PresentationLinks: OutOfLineValue {
  /// The controller this one presents: held strongly, as a presenter keeps
  /// what it presents.
  var presented: (any ViewController)?
  /// The controller presenting this one; in the tree, it stands where a
  /// parent would (events, clock, window, hierarchical exclusion).
  var presentingLink: ControllerBackLink?
  /// How this controller is presented, while it is.
  var style: PresentationStyle?
  var isBeingPresented = false
  var isBeingDismissed = false
  /// Told of interactive dismissals of this controller while presented.
  weak var delegate: (any PresentationControllerDelegate)?
  /// For a `.fullScreen` presentation: the window layer it took off screen,
  /// and the layer's index among the window's subviews.
  var coveredLayer: (view: View, index: Int)?

  var presenting: (any ViewController)? {
    get { presentingLink?.value }
    set { presentingLink = newValue.map(ControllerBackLink.init) }
  }
}

extension ControllerNode {
  // MARK: Guarded by TreeLock

  /// The controller this one presents.
  var _presented: (any ViewController)? {
    get { _presentation.value.presented }
    set { _presentation.value.presented = newValue }
  }
  /// The controller presenting this one.
  var _presenting: (any ViewController)? {
    get { _presentation.value.presenting }
    set { _presentation.value.presenting = newValue }
  }
  var _presentationStyle: PresentationStyle? {
    get { _presentation.value.style }
    set { _presentation.value.style = newValue }
  }
  var _isBeingPresented: Bool {
    get { _presentation.value.isBeingPresented }
    set { _presentation.value.isBeingPresented = newValue }
  }
  var _isBeingDismissed: Bool {
    get { _presentation.value.isBeingDismissed }
    set { _presentation.value.isBeingDismissed = newValue }
  }
  var _presentationDelegate: (any PresentationControllerDelegate)? {
    get { _presentation.value.delegate }
    set { _presentation.value.delegate = newValue }
  }
  var _coveredLayer: (view: View, index: Int)? {
    get { _presentation.value.coveredLayer }
    set { _presentation.value.coveredLayer = newValue }
  }
}
