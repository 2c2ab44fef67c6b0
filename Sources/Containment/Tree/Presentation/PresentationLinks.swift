/// A controller's part in modal presentation (§10).
///
/// Guarded by the link lock; most controllers never present or are presented,
/// so the node keeps it out of line.
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

extension ControllerLinks {
  /// The controller this one presents.
  var presented: (any ViewController)? {
    get { presentation.value.presented }
    set { presentation.value.presented = newValue }
  }
  /// The controller presenting this one.
  var presenting: (any ViewController)? {
    get { presentation.value.presenting }
    set { presentation.value.presenting = newValue }
  }
  var presentationStyle: PresentationStyle? {
    get { presentation.value.style }
    set { presentation.value.style = newValue }
  }
  var isBeingPresented: Bool {
    get { presentation.value.isBeingPresented }
    set { presentation.value.isBeingPresented = newValue }
  }
  var isBeingDismissed: Bool {
    get { presentation.value.isBeingDismissed }
    set { presentation.value.isBeingDismissed = newValue }
  }
  var presentationDelegate: (any PresentationControllerDelegate)? {
    get { presentation.value.delegate }
    set { presentation.value.delegate = newValue }
  }
  var coveredLayer: (view: View, index: Int)? {
    get { presentation.value.coveredLayer }
    set { presentation.value.coveredLayer = newValue }
  }
}
