/// How many hooks each benchmarked operation delivers to the controllers it
/// touches, from the contract: what the "nothing lost" checks expect.
enum HookCounts {
  /// Three-step add on screen (C1, C3) with the view already loaded:
  /// willMove, viewWillAppear, viewIsAppearing, viewDidAppear, didMove.
  static let installLoaded = 5
  /// Standard remove on screen (C2, C4): willMove(nil), viewWillDisappear,
  /// viewDidDisappear, didMove(nil).
  static let uninstall = 4
  /// One add+remove (or push+pop) pair of a child whose view is loaded.
  static let pairLoaded = installLoaded + uninstall
  /// The same pair with a first view access: plus viewDidLoad.
  static let pairFirstLoad = pairLoaded + 1
  /// A transition, counted over both children: from.willDisappear,
  /// to.willAppear, to.viewIsAppearing, from.didDisappear, to.didAppear.
  static let transition = 5
  /// A navigation push (N2) or pop (N3) between two controllers whose
  /// views are loaded: the moving one's willMove and didMove, the old top's
  /// viewWillDisappear and viewDidDisappear, the new top's viewWillAppear,
  /// viewIsAppearing and viewDidAppear.
  static let navigationPush = 7
  /// A tab switch (B2), views loaded: new.viewWillAppear,
  /// old.viewWillDisappear, new.viewIsAppearing, old.viewDidDisappear,
  /// new.viewDidAppear.
  static let tabSwitch = 5
  /// Appearance of one controller: willAppear, isAppearing, didAppear.
  static let appear = 3
  /// Disappearance of one controller: willDisappear, didDisappear.
  static let disappear = 2
}
