import Containment
import Logging
import ServiceLifecycle

/// A Containment tree run as a swift-service-lifecycle `Service`: shown when
/// the `ServiceGroup` starts it, torn down in order when the group shuts
/// down gracefully (SIGTERM, SIGINT, `triggerGracefulShutdown()`) or is
/// cancelled.
///
/// ```swift
/// let service = ContainmentService(window: window, root: root, logger: logger)
/// let group = ServiceGroup(
///   services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// Why a wrapper rather than `extension TreeService: @retroactive Service {}`:
/// a `ServiceGroup` asks a service to shut down gracefully through a task-local
/// handler, not by cancelling its task, and by default it waits for ever. A
/// bare `TreeService.run()` only ends on cancellation or on
/// `TreeService.shutdownGracefully()`, so with the one-line conformance
/// SIGTERM never reaches the tree and the process hangs. ``run()`` registers
/// that handler (`withGracefulShutdownHandler`) and forwards it to
/// `TreeService.shutdownGracefully()`.
///
/// What ending the service does, in the order of the contract (V3, V5): the
/// tree goes off screen (its appearance hooks, parents first), then every
/// controller's `viewDidTearDown()` runs, children before parents, then the
/// tree's event streams end and ``run()`` returns. How long the stop hooks
/// may take is the tree's `TeardownPolicy` (on the window's
/// `ContainmentEnvironment`), measured on the tree's clock: past its
/// `graceful` deadline the hook still running is cancelled, past
/// `abandonAfter` it is abandoned and the hooks not yet called are skipped.
///
/// Isolation: a `Sendable` value with no actor of its own. ``run()`` runs in
/// the task that calls it (the group's child task for this service); the
/// tree's hooks run on the controllers' actors, as always. ``ready()`` and
/// ``shutdownGracefully()`` may be called from any task.
public struct ContainmentService: Service, CustomStringConvertible {
  /// The tree this service runs: its window, root and shutdown signal.
  public let tree: TreeService
  private let phase: ServicePhase
  private let eventLog: TreeEventLogger?

  /// A service that runs `tree`.
  ///
  /// With a `logger`, it subscribes to the tree's
  /// events now (so nothing the run causes is missed) and logs them through
  /// `logger` while it runs (``TreeEventLogger``); ``run()`` then returns once
  /// the last event, the root's `terminated`, has been logged. Synchronous.
  public init(_ tree: TreeService, logger: Logger? = nil) {
    self.tree = tree
    self.phase = ServicePhase()
    self.eventLog = logger.map { TreeEventLogger(tree.root, logger: $0) }
  }

  /// A service that will show `root` in `window` when it runs (a new
  /// `TreeService`); see ``init(_:logger:)`` for `logger`.
  ///
  /// Synchronous.
  public init(window: Window, root: any ViewController, logger: Logger? = nil) {
    self.init(TreeService(window: window, root: root), logger: logger)
  }

  /// Runs the tree until the service group shuts down gracefully or cancels
  /// this task, then tears it down in order and returns (the `Service`
  /// requirement; call it once).
  ///
  /// - Shows the root in the window (`Window.run(_:until:)`), then suspends.
  /// - A graceful shutdown of the group, or ``shutdownGracefully()``, starts
  ///   the teardown: off screen, `viewDidTearDown()` children before
  ///   parents within the tree's `TeardownPolicy`, streams end.
  /// - Cancelling the task starts the same teardown. It is not cut short by
  ///   the cancellation: the tree's `TeardownPolicy` bounds it. Give the
  ///   group a `maximumCancellationDuration` longer than that policy's
  ///   `graceful + abandonAfter`, or the group stops the process first.
  /// - A teardown that the service did not ask for — the tree's
  ///   `FaultPolicy.tearDownTree` after a hook missed its deadline, or
  ///   `Window.tearDown()` — ends the run too, with
  ///   ``ContainmentServiceError/treeTornDown(_:)``: a service without a tree
  ///   does not keep running. The group's `failureTerminationBehavior`
  ///   decides what follows (by default, it cancels the other services).
  /// - With a logger, it then waits until the tree's events are all logged,
  ///   the teardown's included, also after a cancellation.
  ///
  /// Throws ``ContainmentServiceError/alreadyStarted`` if called a second
  /// time, ``ContainmentServiceError/treeTornDown(_:)`` as above, and the
  /// errors of `Window.run(_:until:)` (for example
  /// `ContainmentError.hasParent(_:)` if the root is some container's
  /// child), after tearing the window down.
  public func run() async throws {
    try phase.start()
    defer { phase.finish() }
    // Not a child task: cancelling the run starts the teardown, whose events
    // must still be logged; a child task's subscription would end at once.
    let logging = eventLog.map { eventLog in Task { await eventLog.run() } }
    do {
      try await runTree()
    } catch {
      logging?.cancel()
      throw error
    }
    // The teardown ended every stream: the log ends with the root's
    // `terminated`. A root that was never torn down has no end to wait for.
    if tree.root.isTornDown { await logging?.value } else { logging?.cancel() }
    if phase.isTreeTornDown { throw ContainmentServiceError.treeTornDown(tree.root.node.id) }
  }

  /// ``run()`` without the event log: the tree's run, ended by a graceful
  /// shutdown, a cancellation or a teardown that the service did not ask for.
  private func runTree() async throws {
    try await withThrowingTaskGroup(of: Void.self) { [tree, phase] group in
      group.addTask {
        // A tree torn down while running, with no shutdown asked for (fault
        // policy, `Window.tearDown()`), ends the run.
        guard (try? await tree.root.waitUntil(.tornDown)) != nil, !tree.shutdown.isRequested, phase.treeTornDown()
        else { return }
        tree.shutdownGracefully()
      }
      defer { group.cancelAll() }
      try await withTaskCancellationHandler {
        try await withGracefulShutdownHandler {
          try await tree.run()
        } onGracefulShutdown: {
          phase.stop()
          tree.shutdownGracefully()
        }
      } onCancel: {
        phase.stop()
      }
    }
  }

  /// Waits until ``run()`` has shown the tree and the tree is idle: the
  /// root's `viewDidAppear` has run and no transaction that can touch the
  /// tree is running or queued (`ViewController.waitUntil(_:)`
  /// with `TreeCondition.idle`).
  ///
  /// Returns at once if that is already so. A
  /// readiness signal: start what depends on the tree after it returns. Idle
  /// is a moment: a request made afterwards starts a transaction again.
  ///
  /// Does not poll: it wakes on the root's events and on its tree's queues.
  /// Non-isolated; call it from any task, before or after ``run()`` starts.
  ///
  /// Throws ``ContainmentServiceError/stopped`` if the service
  /// stops (graceful shutdown, cancellation of its run, or ``run()``
  /// failing or returning) before the tree was ready, and
  /// `CancellationError` if the waiting task is cancelled.
  public func ready() async throws {
    let root = tree.root
    let phase = self.phase
    let isReady = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        do {
          try await root.waitUntil(.appeared)
          try await root.waitUntil(.idle)
          return true
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          return false  // Torn down before it appeared.
        }
      }
      group.addTask {
        await phase.stopped()
        return false
      }
      defer { group.cancelAll() }
      return try await group.next() ?? false
    }
    try Task.checkCancellation()
    if !isReady { throw ContainmentServiceError.stopped }
  }

  /// Ends ``run()`` as a graceful shutdown of the group would: the tree is
  /// torn down in order, then ``run()`` returns.
  ///
  /// Remembered if ``run()`` has
  /// not started yet. Returns immediately; requesting again does nothing.
  public func shutdownGracefully() {
    phase.stop()
    tree.shutdownGracefully()
  }

  /// "ContainmentService(Root)", after the root controller's name: how the
  /// service group names this service in its logs.
  public var description: String { "ContainmentService(\(tree.root.node.name))" }
}
