/// Where a controller's view is in its appearance cycle (§3).
public enum AppearanceState: Sendable, Hashable, Codable, CustomStringConvertible {
  case disappeared, appearing, appeared, disappearing
  /// A readable description.
  public var description: String {
    switch self {
    case .disappeared: "disappeared"
    case .appearing: "appearing"
    case .appeared: "appeared"
    case .disappearing: "disappearing"
    }
  }
}

/// Why an appearance call was unbalanced (A4). The call never traps and
/// never corrupts state: it is ignored or clamped, and this is reported as a
/// diagnostic event on the controller's stream.
public enum UnbalancedAppearanceTransition: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `endAppearanceTransition()` with no transition begun: ignored.
  case endWithoutBegin
  /// A second `begin` in the same direction while one is open: no second
  /// will-hook; the nesting level counts it, so the did-hook waits for the
  /// matching number of `end`s (A3).
  case nestedBegin(isAppearing: Bool)
  /// `begin` toward the state the controller is already in (appearing while
  /// appeared, disappearing while disappeared): ignored.
  case alreadyInState(AppearanceState)

  /// A readable description.
  public var description: String {
    switch self {
    case .endWithoutBegin: "endAppearanceTransition without begin"
    case .nestedBegin(let appearing): "nested beginAppearanceTransition(\(appearing))"
    case .alreadyInState(let state): "beginAppearanceTransition while already \(state)"
    }
  }
}

/// Why a call that cannot throw (``ViewController/beginAppearanceTransition(_:animated:)``,
/// ``ViewController/endAppearanceTransition()``, ``ViewController/willMove(toParent:)``,
/// ``ViewController/didMove(toParent:)``) was refused. The call changes
/// nothing and runs no hook; this is reported as a `callIgnored` event on the
/// controller's stream and on its ancestors' tree streams (§8).
public enum IgnoredCall: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The controller's tree was torn down. Its own streams have ended, so
  /// only the tree streams of ancestors outside the torn-down subtree (if
  /// any) hear of it.
  case tornDown
  /// `beginAppearanceTransition(true, ...)` on a controller that has no
  /// parent and is not a window's root: nothing could show it, so it stays
  /// `disappeared` (a controller appears through a window, or through the
  /// container that owns it).
  case appearingWithoutWindow
  /// `dismiss(animated:)` on a controller that presents nothing and is not
  /// presented: UIKit ignores it (§8).
  case nothingToDismiss

  /// A readable description.
  public var description: String {
    switch self {
    case .tornDown: "the tree was torn down"
    case .appearingWithoutWindow: "appearing without a parent or a window"
    case .nothingToDismiss: "nothing to dismiss"
    }
  }
}

/// The pure appearance state machine of one controller (A2–A4).
///
/// It only decides; callers perform the returned effects (call hooks, emit
/// events) after releasing the link lock.
struct AppearanceMachine: Sendable {
  enum Effect: Sendable, Hashable {
    case willAppear, isAppearing, didAppear, willDisappear, didDisappear
    case unbalanced(UnbalancedAppearanceTransition)
  }

  private(set) var state: AppearanceState = .disappeared
  private(set) var level = 0
  /// The `animated` flag of the transition under way (did-hooks reuse it).
  private(set) var animated = false
  private var isAppearingDelivered = false

  /// `beginAppearanceTransition(isAppearing, ...)`.
  ///
  /// `automatic` marks the runtime's own forwarding: toward the state the
  /// controller is already in it does nothing and reports nothing.
  mutating func begin(isAppearing: Bool, animated: Bool = false, automatic: Bool = false) -> [Effect] {
    defer { if level > 0 { self.animated = animated } }
    switch (state, isAppearing) {
    case (.disappeared, true), (.disappearing, true):
      // From rest, or reversing a disappearance (A3): the level carries over.
      if state == .disappeared { level = 1 }
      state = .appearing
      isAppearingDelivered = false
      return [.willAppear]
    case (.appeared, false), (.appearing, false):
      if state == .appeared { level = 1 }
      state = .disappearing
      return [.willDisappear]
    case (.appearing, true), (.disappearing, false):
      if automatic { return [] }
      level += 1
      return [.unbalanced(.nestedBegin(isAppearing: isAppearing))]
    case (.appeared, true), (.disappeared, false):
      return automatic ? [] : [.unbalanced(.alreadyInState(state))]
    }
  }

  /// The view is now in the hierarchy: deliver `viewIsAppearing` once, if an
  /// appearance is under way and has not had it.
  mutating func viewInstalled() -> [Effect] {
    guard state == .appearing, !isAppearingDelivered else { return [] }
    isAppearingDelivered = true
    return [.isAppearing]
  }

  /// The window showing the controller was released: at rest and not
  /// disappeared, it becomes `disappeared` with no hook. Returns whether it
  /// changed; a transition under way (level > 0) is left to finish.
  mutating func takenOffScreen() -> Bool {
    guard level == 0, state != .disappeared else { return false }
    state = .disappeared
    return true
  }

  /// `endAppearanceTransition()`: the did-hook fires when the level returns to zero.
  mutating func end() -> [Effect] {
    guard level > 0 else { return [.unbalanced(.endWithoutBegin)] }
    level -= 1
    guard level == 0 else { return [] }
    switch state {
    case .appearing:
      let installed = viewInstalled()
      state = .appeared
      return installed + [.didAppear]
    case .disappearing:
      state = .disappeared
      return [.didDisappear]
    case .appeared, .disappeared:
      return []
    }
  }
}
