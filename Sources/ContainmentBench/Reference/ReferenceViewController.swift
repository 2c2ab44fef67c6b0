import Containment

/// The reference design: UIKit's containment as UIKit does it,
/// a plain class tree confined to the main actor.
///
/// Same verbs and the same hook order as the runtime for what the benchmarks
/// use (C1–C4, A1–A2, T2), but no transactions, no link lock and no event
/// streams: everything is serialized by running on one thread.
///
/// Subclasses override the hooks, as in UIKit.
@MainActor
class ReferenceViewController {
  let name: String
  private(set) weak var parent: ReferenceViewController?
  private(set) var children: [ReferenceViewController] = []
  private(set) var viewIfLoaded: ReferenceView?
  var appearance = ReferenceAppearance()
  private(set) var isMovingToParent = false
  private(set) var isMovingFromParent = false

  init(name: String) { self.name = name }

  var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

  /// The root view, loaded on first access (`loadView`, then `viewDidLoad`).
  var view: ReferenceView {
    if let viewIfLoaded { return viewIfLoaded }
    let view = loadView()
    view.owner = self
    viewIfLoaded = view
    viewDidLoad()
    return view
  }

  // MARK: Hooks (override)

  func loadView() -> ReferenceView { ReferenceView() }
  func viewDidLoad() {}
  func viewWillAppear(_ animated: Bool) {}
  func viewIsAppearing(_ animated: Bool) {}
  func viewDidAppear(_ animated: Bool) {}
  func viewWillDisappear(_ animated: Bool) {}
  func viewDidDisappear(_ animated: Bool) {}
  func viewWillMove(toParent parent: ReferenceViewController?) {}
  func viewDidMove(toParent parent: ReferenceViewController?) {}

  // MARK: Containment (C1, C2, C6)

  func addChild(_ child: ReferenceViewController) {
    guard child !== self, !child.isAncestorOrSelf(of: self), child.parent !== self else { return }
    if child.parent != nil {
      child.willMove(toParent: nil)
      child.removeFromParent()
    }
    children.append(child)
    child.parent = self
    child.isMovingToParent = true
    child.willMove(toParent: self)
  }

  func removeFromParent() {
    guard let parent else { return }
    if let view = viewIfLoaded, let parentView = parent.viewIfLoaded, view.superview != nil,
      parentView.isAncestorOrSelf(of: view)
    {
      view.removeFromSuperview()
    }
    parent.children.removeAll { $0 === self }
    self.parent = nil
    didMove(toParent: nil)
  }

  func willMove(toParent parent: ReferenceViewController?) {
    if parent == nil { isMovingFromParent = true }
    viewWillMove(toParent: parent)
  }

  func didMove(toParent parent: ReferenceViewController?) {
    viewDidMove(toParent: parent)
    if appearance.state == .appeared || appearance.state == .disappeared {
      if parent != nil { isMovingToParent = false } else { isMovingFromParent = false }
    }
  }

  func isAncestorOrSelf(of other: ReferenceViewController) -> Bool {
    var node: ReferenceViewController? = other
    while let current = node {
      if current === self { return true }
      node = current.parent
    }
    return false
  }

  // MARK: Transition (T2, zero duration)

  func transition(from: ReferenceViewController, to: ReferenceViewController) {
    guard from.parent === self, to.parent === self, from !== to,
      let fromView = from.viewIfLoaded, let superview = fromView.superview, to.viewIfLoaded?.superview == nil
    else { return }
    let toView = to.view
    toView.frame = fromView.frame
    superview.insert(toView, after: fromView)
    var pass = ReferenceAppearancePass()
    if shouldAutomaticallyForwardAppearanceMethods, fromView.window != nil {
      pass.begin(Self.forwardingTargets(from: from), isAppearing: false)
      pass.begin(Self.forwardingTargets(from: to), isAppearing: true)
    }
    pass.deliverWill()
    pass.deliverIsAppearing()
    fromView.unlink()
    pass.deliverDid()
  }

  // MARK: Appearance forwarding (A1)

  /// `controller`, then its installed children, recursively, parent first.
  static func forwardingTargets(from controller: ReferenceViewController) -> [ReferenceViewController] {
    var result: [ReferenceViewController] = []
    appendForwarding(from: controller, into: &result)
    return result
  }

  static func forwardingTargets(in view: ReferenceView) -> [ReferenceViewController] {
    var result: [ReferenceViewController] = []
    for controller in view.topOwners() {
      if let parent = controller.parent, !parent.shouldAutomaticallyForwardAppearanceMethods { continue }
      appendForwarding(from: controller, into: &result)
    }
    return result
  }

  private static func appendForwarding(
    from controller: ReferenceViewController, into result: inout [ReferenceViewController]
  ) {
    result.append(controller)
    guard controller.shouldAutomaticallyForwardAppearanceMethods, let view = controller.viewIfLoaded else { return }
    for child in controller.children {
      guard let childView = child.viewIfLoaded, childView.superview != nil, view.isAncestorOrSelf(of: childView)
      else { continue }
      appendForwarding(from: child, into: &result)
    }
  }

  func clearMovingFlag(appearing: Bool) {
    if appearing { isMovingToParent = false } else { isMovingFromParent = false }
  }
}
