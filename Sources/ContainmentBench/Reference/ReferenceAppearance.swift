import Containment

/// The reference design's appearance state: the same states and nesting
/// rule as the runtime (A2, A3), for automatic forwarding only.
struct ReferenceAppearance {
  private(set) var state: AppearanceState = .disappeared
  private var isAppearingDelivered = false

  /// Starts a transition; false if the controller is already in or heading
  /// to that state (then it gets no hooks).
  mutating func begin(isAppearing: Bool) -> Bool {
    switch (state, isAppearing) {
    case (.disappeared, true), (.disappearing, true):
      state = .appearing
      isAppearingDelivered = false
      return true
    case (.appeared, false), (.appearing, false):
      state = .disappearing
      return true
    default:
      return false
    }
  }

  /// True once per appearance: deliver `viewIsAppearing` now.
  mutating func viewInstalled() -> Bool {
    guard state == .appearing, !isAppearingDelivered else { return false }
    isAppearingDelivered = true
    return true
  }

  mutating func end() {
    switch state {
    case .appearing: state = .appeared
    case .disappearing: state = .disappeared
    case .appeared, .disappeared: break
    }
  }
}

/// One coordinated appearance change: all will-hooks, then `viewIsAppearing`,
/// then all did-hooks, in forwarding order (A1, A2).
@MainActor
struct ReferenceAppearancePass {
  private var entries: [(controller: ReferenceViewController, isAppearing: Bool)] = []

  mutating func begin(_ controllers: [ReferenceViewController], isAppearing: Bool) {
    for controller in controllers where controller.appearance.begin(isAppearing: isAppearing) {
      entries.append((controller, isAppearing))
    }
  }

  func deliverWill() {
    for (controller, isAppearing) in entries {
      if isAppearing { controller.viewWillAppear(false) } else { controller.viewWillDisappear(false) }
    }
  }

  func deliverIsAppearing() {
    for (controller, isAppearing) in entries where isAppearing && controller.appearance.viewInstalled() {
      controller.viewIsAppearing(false)
    }
  }

  func deliverDid() {
    for (controller, isAppearing) in entries {
      if isAppearing, controller.appearance.viewInstalled() { controller.viewIsAppearing(false) }
      controller.appearance.end()
      if isAppearing { controller.viewDidAppear(false) } else { controller.viewDidDisappear(false) }
      controller.clearMovingFlag(appearing: isAppearing)
    }
  }

  func deliverAll() {
    deliverWill()
    deliverIsAppearing()
    deliverDid()
  }
}
