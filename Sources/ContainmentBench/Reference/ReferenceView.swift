import Containment

/// The reference design's view: links and a frame, main-actor confined.
///
/// Moving a view into or out of a window forwards appearance (A1).
@MainActor
final class ReferenceView {
  var frame = Rect.zero
  private(set) weak var superview: ReferenceView?
  private(set) var subviews: [ReferenceView] = []
  weak var owner: ReferenceViewController?
  weak var hostWindow: ReferenceWindow?

  var window: ReferenceWindow? {
    var view = self
    while let superview = view.superview { view = superview }
    return view.hostWindow
  }

  func isAncestorOrSelf(of other: ReferenceView) -> Bool {
    var view: ReferenceView? = other
    while let current = view {
      if current === self { return true }
      view = current.superview
    }
    return false
  }

  /// The topmost controller-owned views of this subtree, self included.
  func topOwners() -> [ReferenceViewController] {
    if let owner { return [owner] }
    return subviews.flatMap { $0.topOwners() }
  }

  func addSubview(_ subview: ReferenceView) {
    guard !subview.isAncestorOrSelf(of: self) else { return }
    let wasInWindow = subview.window != nil
    let willBeInWindow = window != nil
    var pass = ReferenceAppearancePass()
    if wasInWindow != willBeInWindow {
      pass.begin(ReferenceViewController.forwardingTargets(in: subview), isAppearing: willBeInWindow)
    }
    pass.deliverWill()
    link(subview, at: nil)
    pass.deliverIsAppearing()
    pass.deliverDid()
  }

  func insert(_ subview: ReferenceView, after sibling: ReferenceView) {
    link(subview, at: subviews.firstIndex { $0 === sibling }.map { $0 + 1 })
  }

  func removeFromSuperview() {
    guard superview != nil else { return }
    var pass = ReferenceAppearancePass()
    if window != nil { pass.begin(ReferenceViewController.forwardingTargets(in: self), isAppearing: false) }
    pass.deliverWill()
    unlink()
    pass.deliverDid()
  }

  func link(_ subview: ReferenceView, at index: Int?) {
    subview.unlink()
    subview.superview = self
    if let index, index < subviews.count { subviews.insert(subview, at: index) } else { subviews.append(subview) }
  }

  func unlink() {
    guard let superview else { return }
    superview.subviews.removeAll { $0 === self }
    self.superview = nil
  }
}

/// The reference design's window: hosts one root controller.
@MainActor
final class ReferenceWindow {
  let rootView = ReferenceView()
  private(set) var rootViewController: ReferenceViewController?

  init() { rootView.hostWindow = self }

  func setRootViewController(_ controller: ReferenceViewController?) {
    if let old = rootViewController {
      var pass = ReferenceAppearancePass()
      if let view = old.viewIfLoaded {
        pass.begin(ReferenceViewController.forwardingTargets(in: view), isAppearing: false)
        pass.deliverWill()
        view.unlink()
      }
      pass.deliverDid()
      rootViewController = nil
    }
    guard let controller else { return }
    rootViewController = controller
    let view = controller.view
    rootView.link(view, at: nil)
    var pass = ReferenceAppearancePass()
    pass.begin(ReferenceViewController.forwardingTargets(in: view), isAppearing: true)
    pass.deliverAll()
  }
}
