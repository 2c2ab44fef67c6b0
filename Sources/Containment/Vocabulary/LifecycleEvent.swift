/// One thing that happened to a controller, as seen on its event stream and on
/// the tree-wide streams of its ancestors (§7).
public struct LifecycleEvent: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Sendable, Hashable, Codable {
    /// First element of every subscription: the state at that instant (E5).
    case subscribed(state: AppearanceState, parent: ControllerID?)
    case viewDidLoad
    case viewWillAppear(animated: Bool)
    case viewIsAppearing(animated: Bool)
    case viewDidAppear(animated: Bool)
    case viewWillDisappear(animated: Bool)
    case viewDidDisappear(animated: Bool)
    case willMove(toParent: ControllerID?)
    case didMove(toParent: ControllerID?)
    case traitCollectionDidChange(TraitCollection)
    /// The controller's stop hook ran: its tree is being torn down (V3).
    case viewDidTearDown
    /// A child was linked to this controller (emitted on the parent).
    case childAdded(ControllerID)
    /// A child was unlinked from this controller, and why (emitted on the
    /// parent; V4).
    case childRemoved(ControllerID, reason: RemovalReason)
    /// The controller started presenting `presented` with `style` (emitted on
    /// the presenter, when the presentation is decided, before its hooks).
    case presented(ControllerID, style: PresentationStyle)
    /// `presented` left the presentation chain (emitted on its presenter,
    /// once the dismissal's hooks are done), and why (V4).
    case dismissed(ControllerID, style: PresentationStyle, reason: RemovalReason)
    /// A transition between two children began (emitted on the container),
    /// with the options it animates with (empty for the built-in containers).
    case transitionBegan(from: ControllerID?, to: ControllerID?, options: TransitionOptions)
    /// A transition between two children ended (emitted on the container).
    case transitionEnded(from: ControllerID?, to: ControllerID?, outcome: TransitionOutcome)
    /// A coalesced appearance batch committed (emitted on the container).
    case batchCommitted(disappearing: [ControllerID], appearing: [ControllerID])
    /// An unbalanced appearance call was ignored or clamped (A4).
    case unbalancedAppearanceTransition(UnbalancedAppearanceTransition)
    /// A call that cannot throw was refused and changed nothing (§8).
    case callIgnored(IgnoredCall)
    /// This subscriber fell behind and lost exactly `count` events here (E4).
    case eventsLost(count: Int)
    /// This subscriber fell behind and was disconnected; the stream ends (E4).
    case lagged
    /// The controller was released or torn down; the stream ends (E6).
    case terminated
    /// The hook named `hook` ("viewWillAppear", ...) ran past its environment's
    /// ``ContainmentEnvironment/hookDeadline``: the transaction stopped
    /// waiting for it and the controller is now faulted (V1).
    case hookTimedOut(hook: String, deadline: Duration)
    /// The hook named `hook` was not called, because the controller is
    /// faulted (V1). Its appearance bookkeeping moved on as if it had run.
    case hookSkipped(hook: String)
    /// The call into this controller's code named `hook` has run for
    /// `after` of its own time (time spent in hooks the runtime delivered to
    /// other controllers meanwhile does not count) past its environment's
    /// ``ContainmentEnvironment/stallWarning``; emitted again after each
    /// further interval. Nothing else changes (V6).
    case hookStalled(hook: String, after: Duration)
    /// A teardown stopped waiting for the call named `hook`, which was still
    /// running when the teardown's ``TeardownPolicy`` ran out (cancelled after
    /// `graceful`, abandoned after `abandonAfter`): the controller is
    /// faulted (V3).
    case hookAbandoned(hook: String)
  }

  /// The controller the event is about.
  public var controller: ControllerID
  /// Its debug name.
  public var name: String
  /// Its path from the root of its tree at emission time, names joined by "/".
  public var path: String
  /// Position in the stream it was delivered on: contiguous per stream; a gap
  /// is always announced by an `eventsLost` marker.
  ///
  /// Markers and the `subscribed` snapshot carry -1.
  public var sequenceNumber: Int
  /// The transaction that caused it, if any.
  ///
  /// Every event of one transaction carries the same id (E3, A7).
  public var transaction: TransactionID?
  /// When, on the tree's injected clock: time since its environment was made.
  public var timestamp: Duration
  /// What happened.
  public var kind: Kind

  /// An event with every field given (the runtime makes them; tests and
  /// consumers may build their own, for example to compare with expected
  /// sequences).
  public init(
    controller: ControllerID, name: String, path: String, sequenceNumber: Int,
    transaction: TransactionID?, timestamp: Duration, kind: Kind
  ) {
    self.controller = controller
    self.name = name
    self.path = path
    self.sequenceNumber = sequenceNumber
    self.transaction = transaction
    self.timestamp = timestamp
    self.kind = kind
  }

  /// A readable description.
  public var description: String {
    let tx = transaction.map { " \($0)" } ?? ""
    return "[\(sequenceNumber)] \(path) \(kind)\(tx)"
  }
}

extension LifecycleEvent.Kind {
  /// A short, stable name for the kind ("viewWillAppear", "childAdded", ...),
  /// for logs and tools.
  public var name: String {
    switch self {
    case .subscribed: "subscribed"
    case .viewDidLoad: "viewDidLoad"
    case .viewWillAppear: "viewWillAppear"
    case .viewIsAppearing: "viewIsAppearing"
    case .viewDidAppear: "viewDidAppear"
    case .viewWillDisappear: "viewWillDisappear"
    case .viewDidDisappear: "viewDidDisappear"
    case .willMove: "willMove"
    case .didMove: "didMove"
    case .traitCollectionDidChange: "traitCollectionDidChange"
    case .viewDidTearDown: "viewDidTearDown"
    case .childAdded: "childAdded"
    case .childRemoved: "childRemoved"
    case .presented: "presented"
    case .dismissed: "dismissed"
    case .transitionBegan: "transitionBegan"
    case .transitionEnded: "transitionEnded"
    case .batchCommitted: "batchCommitted"
    case .unbalancedAppearanceTransition: "unbalancedAppearanceTransition"
    case .callIgnored: "callIgnored"
    case .eventsLost: "eventsLost"
    case .lagged: "lagged"
    case .terminated: "terminated"
    case .hookTimedOut: "hookTimedOut"
    case .hookSkipped: "hookSkipped"
    case .hookStalled: "hookStalled"
    case .hookAbandoned: "hookAbandoned"
    }
  }
}
