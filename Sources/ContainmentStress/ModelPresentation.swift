import Containment

/// A controller's part in modal presentation, as the model holds it (§10).
struct ModelPresentation: Sendable, Hashable {
  var presenting: Int?
  var presented: Int?
  var style: PresentationStyle?
  /// This window layer (a window's root or a presented controller) is off
  /// screen under a `.fullScreen` presentation above it (P1).
  var covered = false
  /// The layer this presented controller took off screen, if `.fullScreen`.
  var coveredLayer: Int?
}

extension Model {
  /// The window layer `index` is shown in: itself or its nearest ancestor
  /// that is a window's root or presented; nil if its view is not in one.
  func layer(of index: Int) -> Int? {
    var current = index
    while true {
      let node = nodes[current]
      if node.isWindowRoot || node.presentation.presenting != nil { return current }
      guard node.installed, let parent = node.parent else { return nil }
      current = parent
    }
  }

  /// The controller at the bottom of `index`'s presentation chains and
  /// containment: a window's root, or the controller a chain starts from.
  ///
  /// A presentation ends when its presenter leaves its place
  /// (`endPresentations`), so a presented controller is always in the
  /// window of its base.
  func base(of index: Int) -> Int {
    var current = index
    while let next = nodes[current].presentation.presenting ?? nodes[current].parent { current = next }
    return current
  }

  mutating func applyPresentation(_ step: ModelStep) throws(Refusal) {
    switch step {
    case .present(let presenter, let presented, let style, let animated):
      try present(presented, from: presenter, style: style, animated: animated)
    case .dismiss(let presenter, let animated):
      dismiss(above: presenter, animated: animated)
    case .interactiveDismiss(let presented, let finish):
      try interactiveDismiss(presented, finish: finish)
    case .presentationRoot(let window, let root):
      try setPresentationRoot(window: window, root: root)
    default:
      return
    }
  }

  /// P1, P2: `presented` (its view added to the window) and, for
  /// `.fullScreen`, the presenter's layer: `presented` event, the layer's
  /// will-hooks, `presented`'s will-hooks and `viewIsAppearing`, the layer
  /// leaves the window, `presented`'s did-hooks, then the layer's.
  private mutating func present(_ presented: Int, from presenter: Int, style: PresentationStyle, animated: Bool)
    throws(Refusal)
  {
    let node = nodes[presented]
    guard presented != presenter, node.parent == nil, node.presentation.presenting == nil, !node.isWindowRoot,
      base(of: presenter) != presented, nodes[presenter].presentation.presented == nil, isInWindow(presenter)
    else { throw Refusal(description: "#\(presenter) cannot present #\(presented)") }
    let layer = style.hidesPresenter ? layer(of: presenter) : nil
    nodes[presenter].presentation.presented = presented
    nodes[presented].presentation = ModelPresentation(presenting: presenter, style: style)
    emit(presenter, .presented(ids[presented], style: style))
    var hiding = Pass(animated: animated)
    var appearing = Pass(animated: animated)
    if let layer { begin(&hiding, forwardingTargets(from: layer), appearing: false) }
    begin(&appearing, forwardingTargets(from: presented), appearing: true)
    deliverWill(hiding)
    deliverWill(appearing)
    deliverIsAppearing(appearing)
    if let layer {
      nodes[layer].presentation.covered = true
      nodes[presented].presentation.coveredLayer = layer
    }
    deliverDid(appearing)
    deliverDid(hiding)
  }

  /// The controllers in `index`'s tree (containment only: itself first if
  /// `includingSelf`, then its descendants in preorder) that present something.
  func presenters(in index: Int, includingSelf: Bool) -> [Int] {
    var found = includingSelf && nodes[index].presentation.presented != nil ? [index] : []
    var stack = Array(nodes[index].children.reversed())
    while let next = stack.popLast() {
      if nodes[next].presentation.presented != nil { found.append(next) }
      stack += nodes[next].children.reversed()
    }
    return found
  }

  /// §10: controllers leaving their place (removed from their parent, after
  /// their `willMove(nil)`): what their trees present ends first, each a
  /// dismissal that is not animated, saying `reason`.
  mutating func endPresentations(from roots: [Int], reason: RemovalReason) {
    for presenter in roots.flatMap({ presenters(in: $0, includingSelf: true) }) {
      dismiss(above: presenter, animated: false, reason: reason)
    }
  }

  /// The presenters inside the trees of the leaving presented controllers
  /// `chain`, top of the chain first; a chain member's layer one of their
  /// presentations covers is forgotten (it leaves with the chain).
  private mutating func presentersInside(leaving chain: [Int]) -> [Int] {
    let found = chain.reversed().flatMap { presenters(in: $0, includingSelf: false) }
    for presenter in found {
      guard let presented = nodes[presenter].presentation.presented,
        let layer = nodes[presented].presentation.coveredLayer, chain.contains(layer)
      else { continue }
      nodes[presented].presentation.coveredLayer = nil
    }
    return found
  }

  /// P4: everything `presenter` presents leaves.
  ///
  /// What the chain's controllers present from inside their trees is dismissed
  /// first (not animated, top of the chain first). Only the top of the chain
  /// (will, did) and the layer the chain's first controller covered (will,
  /// `viewIsAppearing`, did) get hooks; the controllers between leave
  /// `disappeared` without hooks; then each presenter hears `dismissed`.
  private mutating func dismiss(above presenter: Int, animated: Bool, reason: RemovalReason = .dismissed) {
    guard let first = nodes[presenter].presentation.presented else { return }
    var chain = [first]
    while let next = nodes[chain[chain.count - 1]].presentation.presented { chain.append(next) }
    for nested in presentersInside(leaving: chain) { dismiss(above: nested, animated: false, reason: reason) }
    let top = chain[chain.count - 1]
    var leaving = Pass(animated: animated)
    var returning = Pass(animated: animated)
    if isInWindow(top) { begin(&leaving, forwardingTargets(from: top), appearing: false) }
    if let layer = nodes[first].presentation.coveredLayer {
      nodes[layer].presentation.covered = false
      begin(&returning, forwardingTargets(from: layer), appearing: true)
    }
    deliverWill(leaving)
    deliverWill(returning)
    deliverIsAppearing(returning)
    for presented in chain.dropLast() {
      for target in forwardingTargets(from: presented) where nodes[target].appearance.level == 0 {
        nodes[target].appearance.state = .disappeared
      }
    }
    deliverDid(leaving)
    deliverDid(returning)
    for presented in chain.reversed() { detachPresented(presented, reason: reason) }
  }

  /// `presented` leaves its presenter, which hears `dismissed`.
  private mutating func detachPresented(_ presented: Int, reason: RemovalReason = .dismissed) {
    guard let presenter = nodes[presented].presentation.presenting else { return }
    emit(
      presenter, .dismissed(ids[presented], style: nodes[presented].presentation.style ?? .pageSheet, reason: reason))
    nodes[presenter].presentation.presented = nil
    nodes[presented].presentation = ModelPresentation()
  }

  /// P6 (always animated): `viewWillDisappear`; finished, `viewDidDisappear`
  /// and `dismissed`; cancelled, the reversal (`viewWillAppear`, then the
  /// start's nesting level ends: `viewIsAppearing`, `viewDidAppear`).
  private mutating func interactiveDismiss(_ presented: Int, finish: Bool) throws(Refusal) {
    let presentation = nodes[presented].presentation
    guard presentation.presenting != nil, presentation.style?.isSheet == true, presentation.presented == nil else {
      throw Refusal(description: "#\(presented) is not a dismissible sheet")
    }
    var start = Pass(animated: true)
    let onScreen = isInWindow(presented)
    if onScreen { begin(&start, forwardingTargets(from: presented), appearing: false) }
    deliverWill(start)
    if finish {
      // What it presents from inside its tree leaves first.
      for nested in presentersInside(leaving: [presented]) { dismiss(above: nested, animated: false) }
      deliverDid(start)
      detachPresented(presented)
      return
    }
    var back = Pass(animated: true)
    if onScreen { begin(&back, forwardingTargets(from: presented), appearing: true) }
    deliverWill(back)
    deliverDid(start)
  }

  /// `Window.setRootViewController` on presentation window `window` (not
  /// animated): the presentations over the old root leave with it (every
  /// layer on screen disappears, will then did), each presenter hears
  /// `dismissed`; then the new root's tree appears.
  private mutating func setPresentationRoot(window: Int, root: Int?) throws(Refusal) {
    let old = presentationWindowRoots[window]
    guard old != root else { return }
    if let root, nodes[root].parent != nil || nodes[root].isWindowRoot || nodes[root].presentation.presenting != nil {
      throw Refusal(description: "#\(root) cannot be a window's root")
    }
    if let old {
      let presented = nodes.indices.filter {
        nodes[$0].presentation.presenting != nil && base(of: $0) == old
      }
      var pass = Pass(animated: false)
      for layer in presented where !nodes[layer].presentation.covered {
        begin(&pass, forwardingTargets(from: layer), appearing: false)
      }
      begin(&pass, forwardingTargets(from: old), appearing: false)
      nodes[old].isWindowRoot = false
      nodes[old].presentation.covered = false
      presentationWindowRoots[window] = nil
      deliverAll(pass)
      for controller in presented { detachPresented(controller, reason: .replaced) }
    }
    guard let root else { return }
    nodes[root].isWindowRoot = true
    presentationWindowRoots[window] = root
    var pass = Pass(animated: false)
    begin(&pass, forwardingTargets(from: root), appearing: true)
    deliverAll(pass)
  }
}

extension ModelPresentation {
  /// What differs between the runtime's presentation links (`self`) and the model's.
  func differences(from expected: ModelPresentation, name: (Int) -> String) -> [String] {
    func names(_ index: Int?) -> String { index.map(name) ?? "nil" }
    var result: [String] = []
    if presenting != expected.presenting {
      result.append("presented by \(names(presenting)) vs model \(names(expected.presenting))")
    }
    if presented != expected.presented {
      result.append("presents \(names(presented)) vs model \(names(expected.presented))")
    }
    if style != expected.style {
      result.append("style \(style.map(\.description) ?? "nil") vs model \(expected.style.map(\.description) ?? "nil")")
    }
    if covered != expected.covered { result.append("layer off screen \(covered) vs model \(expected.covered)") }
    return result
  }
}

extension Model {
  /// The runtime's presentations (read at a quiescent point): links, styles,
  /// the layers off screen, and the layer each `.fullScreen` presentation
  /// covers (its presenter's).
  mutating func snapshotPresentations(of world: World) {
    presentationWindowRoots = world.presentation.windows.map {
      $0.rootViewController.flatMap { world.indexByID[$0.node.id] }
    }
    for (index, controller) in world.controllers.enumerated() {
      nodes[index].presentation.presenting = controller.presentingViewController.flatMap { world.indexByID[$0.node.id] }
      nodes[index].presentation.presented = controller.presentedViewController.flatMap { world.indexByID[$0.node.id] }
      nodes[index].presentation.style =
        nodes[index].presentation.presenting == nil ? nil : controller.modalPresentationStyle
    }
    for (index, controller) in world.controllers.enumerated()
    where nodes[index].isWindowRoot || nodes[index].presentation.presenting != nil {
      nodes[index].presentation.covered = controller.viewIfLoaded?.superview == nil
    }
    for index in nodes.indices where nodes[index].presentation.style?.hidesPresenter == true {
      let covering = nodes[index].presentation.presenting.flatMap { self.layer(of: $0) }
      nodes[index].presentation.coveredLayer = covering.flatMap { nodes[$0].presentation.covered ? $0 : nil }
    }
  }
}
