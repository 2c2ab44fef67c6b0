import Containment
import Logging

/// Logs a tree's lifecycle events through a swift-log `Logger`: one record
/// per event, at the event's ``level(of:)``, with the message "path kind"
/// ("App/Content viewDidTearDown") and ``metadata(of:)`` (path, controller,
/// transaction id, event kind and the kind's details).
///
/// ```swift
/// let eventLog = TreeEventLogger(root, logger: logger)  // subscribes now
/// async let logged: Void = eventLog.run()              // logs until the tree is torn down
/// ```
///
/// It subscribes to the root's tree-wide stream
/// (`ViewController.treeEvents(policy:)`) when it is made, so the events
/// caused after that are all logged, in the order they were emitted. A
/// logger that falls behind loses events rather than slowing the tree: it
/// logs an `eventsLost` warning with the exact count (E4).
///
/// Not a `Service` on purpose: it ends by itself when the tree's streams end,
/// and a `ServiceGroup` shutting down another service treats any service that
/// ends meanwhile as a failure. ``ContainmentService`` runs one beside its
/// tree when given a logger; run one yourself for a tree you run otherwise.
///
/// Isolation: a `Sendable` value; ``run()`` logs from the task that calls it.
public struct TreeEventLogger: Sendable {
  /// The logger every event goes to.
  public let logger: Logger
  private let events: LifecycleEvents

  /// Subscribes to the events of `root` and of everything below it, with
  /// `policy`'s buffer, to log them through `logger` once ``run()`` is
  /// called.
  ///
  /// Synchronous; nothing is logged before ``run()``.
  public init(_ root: any ViewController, logger: Logger, policy: SubscriberPolicy = .default) {
    self.logger = logger
    self.events = root.treeEvents(policy: policy)
  }

  /// Logs every event of the subscription, in order, until the stream ends:
  /// after the root's `terminated` (its tree was torn down or the root was
  /// released), or after `lagged` with a `SubscriberPolicy.disconnectOnLag(_:)`
  /// policy.
  ///
  /// Call it once: a second call returns at once.
  ///
  /// Cancelling the calling task ends the subscription: `run()` returns
  /// without logging what was still buffered.
  public func run() async {
    for await event in events {
      log(event)
    }
  }

  /// Logs one event: at ``level(of:)``, with ``metadata(of:)``.
  ///
  /// Synchronous;
  /// for events read from a stream of your own.
  public func log(_ event: LifecycleEvent) {
    logger.log(
      level: Self.level(of: event.kind), "\(event.path) \(event.kind.name)", metadata: Self.metadata(of: event))
  }

  /// The level an event of this kind is logged at.
  ///
  /// The levels:
  ///
  /// - `error`: a hook ran past its deadline, or a teardown abandoned it, and
  ///   faulted its controller (`hookTimedOut`, `hookAbandoned`), or this
  ///   subscriber was disconnected (`lagged`).
  /// - `warning`: what a supervisor or a misuse did — a hook reported as
  ///   stalled (`hookStalled`), a hook skipped on a faulted controller, a child removed or a controller dismissed with
  ///   reason `faulted`, an unbalanced appearance call, a refused call — and
  ///   events this subscriber lost (`eventsLost`).
  /// - `debug`: the tree's structure and life — `viewDidLoad`, moves, children
  ///   added and removed, presentations and dismissals, `viewDidTearDown`,
  ///   `terminated`.
  /// - `trace`: the appearance hooks, trait changes, transitions, batches and
  ///   the subscription's `subscribed` snapshot.
  public static func level(of kind: LifecycleEvent.Kind) -> Logger.Level {
    switch kind {
    case .hookTimedOut, .hookAbandoned, .lagged:
      .error
    case .hookSkipped, .hookStalled, .unbalancedAppearanceTransition, .callIgnored, .eventsLost:
      .warning
    case .childRemoved(_, let reason), .dismissed(_, _, let reason):
      reason == .faulted ? .warning : .debug
    case .viewDidLoad, .willMove, .didMove, .childAdded, .presented, .viewDidTearDown, .terminated:
      .debug
    case .subscribed, .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
      .traitCollectionDidChange, .transitionBegan, .transitionEnded, .batchCommitted:
      .trace
    }
  }

  /// The metadata an event is logged with.
  ///
  /// Always:
  /// `containment.event` (the kind's `LifecycleEvent.Kind.name`),
  /// `containment.path`, `containment.controller` ("#12"), and, when the
  /// event belongs to a transaction, `containment.transaction` ("tx34").
  /// Then the kind's details, when it has any: `containment.hook` and
  /// `containment.deadline` (faults), `containment.after` (stalls),
  /// `containment.child` and
  /// `containment.reason` (removals, presentations, dismissals),
  /// `containment.parent` (moves, snapshots), `containment.animated`,
  /// `containment.lost` (`eventsLost`), `containment.detail` (the rest).
  public static func metadata(of event: LifecycleEvent) -> Logger.Metadata {
    var metadata: Logger.Metadata = [
      "containment.event": "\(event.kind.name)",
      "containment.path": "\(event.path)",
      "containment.controller": "\(event.controller)",
    ]
    if let transaction = event.transaction {
      metadata["containment.transaction"] = "\(transaction)"
    }
    func parent(_ id: ControllerID?) -> Logger.MetadataValue { id.map { "\($0)" } ?? "nil" }
    switch event.kind {
    case .subscribed(let state, let parentID):
      metadata["containment.state"] = "\(state)"
      metadata["containment.parent"] = parent(parentID)
    case .viewWillAppear(let animated), .viewIsAppearing(let animated), .viewDidAppear(let animated),
      .viewWillDisappear(let animated), .viewDidDisappear(let animated):
      metadata["containment.animated"] = "\(animated)"
    case .willMove(let parentID), .didMove(let parentID):
      metadata["containment.parent"] = parent(parentID)
    case .childAdded(let child):
      metadata["containment.child"] = "\(child)"
    case .childRemoved(let child, let reason):
      metadata["containment.child"] = "\(child)"
      metadata["containment.reason"] = "\(reason)"
    case .presented(let child, let style):
      metadata["containment.child"] = "\(child)"
      metadata["containment.detail"] = "\(style)"
    case .dismissed(let child, let style, let reason):
      metadata["containment.child"] = "\(child)"
      metadata["containment.reason"] = "\(reason)"
      metadata["containment.detail"] = "\(style)"
    case .hookTimedOut(let hook, let deadline):
      metadata["containment.hook"] = "\(hook)"
      metadata["containment.deadline"] = "\(deadline)"
    case .hookSkipped(let hook), .hookAbandoned(let hook):
      metadata["containment.hook"] = "\(hook)"
    case .hookStalled(let hook, let after):
      metadata["containment.hook"] = "\(hook)"
      metadata["containment.after"] = "\(after)"
    case .eventsLost(let count):
      metadata["containment.lost"] = "\(count)"
    case .traitCollectionDidChange, .transitionBegan, .transitionEnded, .batchCommitted,
      .unbalancedAppearanceTransition, .callIgnored:
      metadata["containment.detail"] = "\(event.kind)"
    case .viewDidLoad, .viewDidTearDown, .lagged, .terminated:
      break
    }
    return metadata
  }
}
