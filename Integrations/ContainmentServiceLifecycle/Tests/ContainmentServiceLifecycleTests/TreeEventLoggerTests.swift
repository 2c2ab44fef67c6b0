import Containment
import ContainmentServiceLifecycle
import ContainmentTestKit
import Logging
import ServiceLifecycle
import Testing

/// The swift-log bridge: a tree's events, in order, one record each, at the
/// level of their kind, with the path, controller, transaction and kind as
/// metadata.
@Suite(.timeLimit(.minutes(1)))
struct TreeEventLoggerTests {
  /// "level path kind" for each of `paths`, in that order.
  private func records(_ level: Logger.Level, _ kind: String, _ paths: [String]) -> [String] {
    paths.map { "\(level) \($0) \(kind)" }
  }

  @Test func aServiceLogsItsTreesEventsInOrderAtTheirLevels() async throws {
    let tree = try await RecordedTree()
    let recorder = LogRecorder()
    let service = ContainmentService(window: Window(), root: tree.r, logger: recorder.logger)
    let group = ServiceGroup(services: [service], logger: .silent)
    let running = Task { try await group.run() }
    try await service.ready()
    await group.triggerGracefulShutdown()
    try await running.value

    let paths = ["R", "R/A", "R/B", "R/B/B1"]
    let shown =
      records(.trace, "viewWillAppear", paths) + records(.trace, "viewIsAppearing", paths)
      + records(.trace, "viewDidAppear", paths)
    let offScreen = records(.trace, "viewWillDisappear", paths) + records(.trace, "viewDidDisappear", paths)
    let stopped = records(.debug, "viewDidTearDown", paths.reversed())
    #expect(recorder.lines == ["trace R subscribed"] + shown + offScreen + stopped + ["debug R terminated"])

    // One transaction shows the tree, one tears it down; every event names its own.
    let entries = recorder.entries
    try #require(entries.count == 26)
    let showing = try #require(entries[1].metadata["containment.transaction"])
    let tearingDown = try #require(entries[13].metadata["containment.transaction"])
    #expect(showing != tearingDown)
    #expect(entries[1...12].allSatisfy { $0.metadata["containment.transaction"] == showing })
    #expect(entries[13...24].allSatisfy { $0.metadata["containment.transaction"] == tearingDown })
    #expect(
      entries[21].metadata == [
        "containment.event": "viewDidTearDown", "containment.path": "R/B/B1",
        "containment.controller": "\(tree.b1.node.id)", "containment.transaction": tearingDown,
      ])
    #expect(
      entries[1].metadata == [
        "containment.event": "viewWillAppear", "containment.path": "R",
        "containment.controller": "\(tree.r.node.id)", "containment.transaction": showing,
        "containment.animated": "false",
      ])
    #expect(
      entries[25].metadata == [
        "containment.event": "terminated", "containment.path": "R", "containment.controller": "\(tree.r.node.id)",
      ])
  }

  @Test func aHookPastItsDeadlineIsAnErrorAndItsIsolationWarnings_V1_V2() async throws {
    let log = HookLog()
    let r = RecordingController("R", log: log)
    let a = RecordingController("A", log: log)
    try await RecordedTree.embed(a, in: r)
    let clock = ManualClock()
    let window = Window(environment: ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1)))
    let gate = Gate()
    await a.setOnHook { hook in if hook == "viewWillAppear" { await gate.wait() } }
    let recorder = LogRecorder()
    let service = ContainmentService(window: window, root: r, logger: recorder.logger)
    let group = ServiceGroup(services: [service], logger: .silent)
    let running = Task { try await group.run() }
    await gate.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)  // A's viewWillAppear deadline.
    clock.advance(by: .seconds(1))
    try await service.ready()  // The show went on without A's hook, then A was removed.
    await group.triggerGracefulShutdown()
    try await running.value
    gate.open()

    let faults = recorder.entries.filter { $0.level >= .warning }
    #expect(
      faults.map { "\($0.level) \($0.message) \($0.metadata["containment.hook"] ?? "")" } == [
        "error R/A hookTimedOut viewWillAppear",
        "warning R/A hookSkipped viewIsAppearing",
        "warning R/A hookSkipped viewDidAppear",
        "warning R/A hookSkipped willMove",
        "warning R childRemoved ",
        "warning R/A hookSkipped viewWillDisappear",
        "warning R/A hookSkipped viewDidDisappear",
        "warning R/A hookSkipped didMove",
      ])
    #expect(faults[0].metadata["containment.deadline"] == "\(Duration.seconds(1))")
    #expect(faults[4].metadata["containment.reason"] == "faulted")
    #expect(faults[4].metadata["containment.child"] == "\(a.node.id)")
  }

  @Test func theLevelOfEachKindOfEvent() {
    let id = RecordingController("C", log: HookLog()).node.id
    let levels: [(LifecycleEvent.Kind, Logger.Level)] = [
      (.hookTimedOut(hook: "viewDidLoad", deadline: .seconds(1)), .error),
      (.lagged, .error),
      (.hookSkipped(hook: "viewDidAppear"), .warning),
      (.eventsLost(count: 3), .warning),
      (.childRemoved(id, reason: .faulted), .warning),
      (.dismissed(id, style: .pageSheet, reason: .faulted), .warning),
      (.childRemoved(id, reason: .popped), .debug),
      (.dismissed(id, style: .pageSheet, reason: .dismissed), .debug),
      (.childAdded(id), .debug),
      (.willMove(toParent: id), .debug),
      (.viewDidLoad, .debug),
      (.viewDidTearDown, .debug),
      (.terminated, .debug),
      (.subscribed(state: .appeared, parent: nil), .trace),
      (.viewDidAppear(animated: true), .trace),
      (.viewWillDisappear(animated: false), .trace),
    ]
    for (kind, level) in levels {
      #expect(TreeEventLogger.level(of: kind) == level, "\(kind)")
    }
  }

  @Test func anEventsKindDetailsAreMetadata() {
    let id = RecordingController("C", log: HookLog()).node.id
    let lost = LifecycleEvent(
      controller: id, name: "C", path: "R/C", sequenceNumber: 7, transaction: nil, timestamp: .zero,
      kind: .eventsLost(count: 3))
    #expect(
      TreeEventLogger.metadata(of: lost) == [
        "containment.event": "eventsLost", "containment.path": "R/C", "containment.controller": "\(id)",
        "containment.lost": "3",
      ])
  }
}
