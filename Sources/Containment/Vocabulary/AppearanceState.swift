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

/// Why an appearance call was unbalanced (A4).
///
/// The call never traps and never corrupts state: it is ignored or clamped, and
/// this is reported as a diagnostic event on the controller's stream.
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
/// ``ViewController/didMove(toParent:)``) was refused.
///
/// The call changes nothing and runs no hook; this is reported as a
/// `callIgnored` event on the controller's stream and on its ancestors' tree
/// streams (§8).
public enum IgnoredCall: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The controller's tree was torn down. Its own streams have ended and a
  /// torn-down part has left its tree first, so in practice nobody hears of
  /// it (as of a message to a stopped actor); the call changed nothing.
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

  /// What one decision returns, in order: at most two effects, kept inline
  /// (a decision is taken for every controller of every appearance change;
  /// an array would cost each one an allocation).
  struct Effects: Sendable, Hashable, Sequence {
    private var first: Effect?
    private var second: Effect?
    /// The controller's window was released while this transition was under
    /// way: once its did-hook is delivered, it is off screen (`disappeared`),
    /// and its stream reports so.
    private(set) var settlesOffScreen = false

    static let none = Effects()
    private init() {}
    init(_ effect: Effect) { first = effect }
    init(_ effect: Effect, then next: Effect) {
      first = effect
      second = next
    }

    var isEmpty: Bool { first == nil }

    /// The effects that satisfy `isIncluded`, in order.
    func only(_ isIncluded: (Effect) -> Bool) -> Effects {
      var result = Effects()
      for effect in self where isIncluded(effect) { result.append(effect) }
      result.settlesOffScreen = settlesOffScreen && result.contains(.didAppear)
      return result
    }

    /// `self`, marked to leave its controller off screen once delivered.
    func settlingOffScreen() -> Effects {
      var result = self
      result.settlesOffScreen = true
      return result
    }

    /// `self` followed by `effect`; at most two effects are ever decided at once.
    func followed(by effect: Effect) -> Effects {
      var result = self
      result.append(effect)
      return result
    }

    private mutating func append(_ effect: Effect) {
      if first == nil {
        first = effect
      } else {
        precondition(second == nil, "an appearance decision has at most two effects")
        second = effect
      }
    }

    func makeIterator() -> Iterator { Iterator(remaining: self) }

    struct Iterator: IteratorProtocol {
      var remaining: Effects
      mutating func next() -> Effect? {
        guard let effect = remaining.first else { return nil }
        remaining.first = remaining.second
        remaining.second = nil
        return effect
      }
    }
  }

  private(set) var state: AppearanceState = .disappeared
  private(set) var level = 0
  /// The `animated` flag of the transition under way (did-hooks reuse it).
  private(set) var animated = false
  private var isAppearingDelivered = false
  /// The window was released during the transition under way: it ends off
  /// screen (``takenOffScreen()``).
  private var offScreenWhenSettled = false

  /// `beginAppearanceTransition(isAppearing, ...)`.
  ///
  /// `automatic` marks the runtime's own forwarding: toward the state the
  /// controller is already in it does nothing and reports nothing.
  mutating func begin(isAppearing: Bool, animated: Bool = false, automatic: Bool = false) -> Effects {
    defer { if level > 0 { self.animated = animated } }
    switch (state, isAppearing) {
    case (.disappeared, true), (.disappearing, true):
      // From rest, or reversing a disappearance (A3): the level carries over.
      if state == .disappeared { level = 1 }
      state = .appearing
      isAppearingDelivered = false
      return Effects(.willAppear)
    case (.appeared, false), (.appearing, false):
      if state == .appeared { level = 1 }
      state = .disappearing
      return Effects(.willDisappear)
    case (.appearing, true), (.disappearing, false):
      if automatic { return .none }
      level += 1
      return Effects(.unbalanced(.nestedBegin(isAppearing: isAppearing)))
    case (.appeared, true), (.disappeared, false):
      return automatic ? .none : Effects(.unbalanced(.alreadyInState(state)))
    }
  }

  /// The view is now in the hierarchy: deliver `viewIsAppearing` once, if an
  /// appearance is under way and has not had it.
  mutating func viewInstalled() -> Effects {
    guard state == .appearing, !isAppearingDelivered else { return .none }
    isAppearingDelivered = true
    return Effects(.isAppearing)
  }

  /// The window showing the controller was released: at rest and not
  /// disappeared, it becomes `disappeared` with no hook.
  ///
  /// Returns whether it changed. A transition under way (level > 0) is left to
  /// finish: its did-hook is still delivered, and then it is `disappeared` too
  /// (``end()``).
  mutating func takenOffScreen() -> Bool {
    if level > 0 {
      offScreenWhenSettled = true
      return false
    }
    guard state != .disappeared else { return false }
    state = .disappeared
    return true
  }

  /// `endAppearanceTransition()`: the did-hook fires when the level returns to zero.
  mutating func end() -> Effects {
    guard level > 0 else { return Effects(.unbalanced(.endWithoutBegin)) }
    level -= 1
    guard level == 0 else { return .none }
    switch state {
    case .appearing:
      let installed = viewInstalled()
      guard offScreenWhenSettled else {
        state = .appeared
        return installed.followed(by: .didAppear)
      }
      offScreenWhenSettled = false
      state = .disappeared
      return installed.followed(by: .didAppear).settlingOffScreen()
    case .disappearing:
      offScreenWhenSettled = false
      state = .disappeared
      return Effects(.didDisappear)
    case .appeared, .disappeared:
      return .none
    }
  }
}
