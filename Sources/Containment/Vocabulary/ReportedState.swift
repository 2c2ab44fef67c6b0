/// The state a controller's event stream has reported so far: what a new
/// subscriber's first element says (E5).
///
/// Updated as each event is stamped, under the controller broadcaster's lock,
/// so a snapshot and the live events that follow it never leave a gap.
package struct ReportedState: Sendable {
  var appearance: AppearanceState = .disappeared
  var parent: ControllerID?

  mutating func apply(_ kind: LifecycleEvent.Kind) {
    switch kind {
    case .viewWillAppear: appearance = .appearing
    case .viewDidAppear: appearance = .appeared
    case .viewWillDisappear: appearance = .disappearing
    case .viewDidDisappear: appearance = .disappeared
    case .willMove(let parent?): self.parent = parent
    case .didMove(nil): parent = nil
    default: break
    }
  }

  /// Whether an event of this kind may change the reported state (`apply`
  /// does nothing for any other).
  static func changes(with kind: LifecycleEvent.Kind) -> Bool {
    switch kind {
    case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .willMove(_?), .didMove(nil): true
    default: false
    }
  }

  var snapshot: LifecycleEvent.Kind { .subscribed(state: appearance, parent: parent) }

  /// For an event that changes only the reported appearance: that change as
  /// a code the broadcaster can record without its lock
  /// (``LifecycleEvent/applyUnlockedReport(_:to:)``); nil for any other.
  static func unlockedReport(for kind: LifecycleEvent.Kind) -> UInt8? {
    switch kind {
    case .viewWillAppear: 1
    case .viewDidAppear: 2
    case .viewWillDisappear: 3
    case .viewDidDisappear: 4
    default: nil
    }
  }
}

extension AppearanceState {
  /// The state an event puts a controller in, if it changes it.
  init?(after kind: LifecycleEvent.Kind) {
    switch kind {
    case .viewWillAppear: self = .appearing
    case .viewDidAppear: self = .appeared
    case .viewWillDisappear: self = .disappearing
    case .viewDidDisappear: self = .disappeared
    case .subscribed(let state, _): self = state
    default: return nil
    }
  }
}

extension LifecycleEvent: Broadcastable {
  /// A controller's stream reports its appearance state and parent to each
  /// new subscriber (the `subscribed` snapshot).
  package static var initialReported: ReportedState { ReportedState() }

  /// Applies an appearance change recorded without the lock
  /// (``ReportedState/unlockedReport(for:)``).
  package static func applyUnlockedReport(_ code: UInt8, to reported: inout ReportedState) {
    switch code {
    case 1: reported.appearance = .appearing
    case 2: reported.appearance = .appeared
    case 3: reported.appearance = .disappearing
    case 4: reported.appearance = .disappeared
    default: break
    }
  }
}
