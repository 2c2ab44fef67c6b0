import Containment

/// The tops of a fixture's trees: the window's root, then the top of every
/// watched controller's tree that is not the window's (a controller with no
/// parent and no presenter).
///
/// A wait for idleness, or an invariant check, on a top covers its whole tree,
/// presentations included.
enum FixtureRoots {
  static func of(window: Window, controllers: [any ViewController]) -> [any ViewController] {
    let root = window.rootViewController
    var roots = [root].compactMap { $0 }
    for controller in controllers {
      var top: any ViewController = controller
      while let above = top.parent ?? top.presentingViewController { top = above }
      if !roots.contains(where: { $0 === top }) { roots.append(top) }
    }
    return roots
  }
}
