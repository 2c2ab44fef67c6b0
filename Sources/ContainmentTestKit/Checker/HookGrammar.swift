import Containment

/// One controller's hook sequence as a state machine (C1–C5, A1–A3): one
/// `viewDidLoad`, before any appearance hook; `willMove(toParent: P)` only
/// while detached and `didMove(toParent: P)` only after it;
/// `willMove(toParent: nil)` only while attached; no did-hook without its
/// will-hook, and `viewIsAppearing` once per appearance, between them.
///
/// It starts from what the controller reported when the checker subscribed
/// (loaded or not, attached or not, appeared or not) and is fed the
/// controller's hook events in order; ``accept(_:naming:)`` names the first
/// hook that breaks it.
struct HookGrammar: Sendable {
  enum Link: Equatable, Sendable {
    case detached
    case attaching(ControllerID)
    case attached(ControllerID)
    case leaving
  }
  var link: Link
  var state: AppearanceState
  var isAppearingSeen = false
  var loads: Int

  /// The grammar of `controller` as it is now (call at a quiescent point).
  init(_ controller: any ViewController) {
    link = controller.parent.map { .attached($0.node.id) } ?? .detached
    state = controller.appearanceState
    loads = controller.isViewLoaded ? 1 : 0
    isAppearingSeen = state == .appeared
  }

  /// Feeds one event; returns what is wrong if it breaks the grammar.
  mutating func accept(_ kind: LifecycleEvent.Kind, naming: ControllerNaming) -> String? {
    func describe(_ link: Link) -> String {
      switch link {
      case .detached: "detached"
      case .attaching(let parent): "attaching to \(naming.name(parent))"
      case .attached(let parent): "attached to \(naming.name(parent))"
      case .leaving: "leaving its parent"
      }
    }
    switch kind {
    case .viewDidLoad:
      loads += 1
      return loads > 1 ? "a second viewDidLoad (C7)" : nil
    case .willMove(let parent?):
      guard link == .detached else {
        return "willMove(toParent: \(naming.name(parent))) while \(describe(link)) (C1)"
      }
      link = .attaching(parent)
    case .didMove(let parent?):
      guard link == .attaching(parent) || link == .attached(parent) else {
        return "didMove(toParent: \(naming.name(parent))) while \(describe(link)) (C1, C3)"
      }
      link = .attached(parent)
    case .willMove(nil):
      guard link != .detached, link != .leaving else { return "willMove(toParent: nil) while \(describe(link)) (C2)" }
      link = .leaving
    case .didMove(nil):
      guard link != .detached else { return "didMove(toParent: nil) while detached (C2, C4)" }
      link = .detached
    case .viewWillAppear:
      guard loads == 1 else { return "viewWillAppear before viewDidLoad (C3, C7)" }
      guard state == .disappeared || state == .disappearing else { return "viewWillAppear while \(state) (A1, A3)" }
      state = .appearing
      isAppearingSeen = false
    case .viewIsAppearing:
      guard state == .appearing, !isAppearingSeen else {
        return "viewIsAppearing while \(state)\(isAppearingSeen ? " (a second one in one appearance)" : "") (A2)"
      }
      isAppearingSeen = true
    case .viewDidAppear:
      guard state == .appearing else { return "viewDidAppear without viewWillAppear (state \(state)) (A1, A3)" }
      guard isAppearingSeen else { return "viewDidAppear without viewIsAppearing (A2)" }
      state = .appeared
    case .viewWillDisappear:
      guard state == .appeared || state == .appearing else { return "viewWillDisappear while \(state) (A1, A3)" }
      state = .disappearing
    case .viewDidDisappear:
      guard state == .disappearing else {
        return "viewDidDisappear without viewWillDisappear (state \(state)) (A1, A3)"
      }
      state = .disappeared
    default:
      break
    }
    return nil
  }

  /// What is wrong with the controller at a quiescent point, where no hook
  /// is due: a `willMove` whose `didMove` never came (C1, C2), or a grammar
  /// that disagrees with the controller's parent or appearance state.
  ///
  /// A controller whose view left every window may read `disappeared`
  /// without hooks (a released window, or the middle of a presentation chain
  /// dismissed from its bottom: P4); the grammar follows it.
  mutating func settle(_ controller: any ViewController, naming: ControllerNaming) -> String? {
    switch link {
    case .attaching(let parent):
      return "willMove(toParent: \(naming.name(parent))) was never followed by didMove(toParent:) (C1)"
    case .leaving:
      return "willMove(toParent: nil) was never followed by its removal (C2)"
    case .attached(let parent) where controller.parent?.node.id != parent:
      return "its hooks say it was added to \(naming.name(parent)), but its parent is \(naming.name(controller.parent))"
    case .detached where controller.parent != nil:
      return "its hooks say it has no parent, but its parent is \(naming.name(controller.parent))"
    default:
      break
    }
    if state == .appeared, controller.appearanceState == .disappeared, controller.viewIfLoaded?.window == nil {
      state = .disappeared
    }
    if state != controller.appearanceState {
      return "its hooks leave it \(state), but it reports \(controller.appearanceState)"
    }
    return nil
  }

  /// True for the events that stand for a hook call.
  static func isHook(_ kind: LifecycleEvent.Kind) -> Bool {
    switch kind {
    case .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
      .willMove, .didMove, .traitCollectionDidChange, .viewDidTearDown:
      true
    default:
      false
    }
  }

  /// True for the events a container emits about its own transactions.
  static func isContainerEvent(_ kind: LifecycleEvent.Kind) -> Bool {
    switch kind {
    case .childAdded, .childRemoved, .transitionBegan, .transitionEnded, .batchCommitted, .presented, .dismissed: true
    default: false
    }
  }
}
