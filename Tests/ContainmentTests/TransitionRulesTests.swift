import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// §4: transitions between children, on an injected manual clock.
@Suite(.timeLimit(.minutes(1)))
struct TransitionRulesTests {
  /// P on screen (window on `clock`) with A installed and B a child whose view is not installed.
  private func setUp(_ f: Fixture, clock: ManualClock) async throws -> (
    Window, RecordingController, RecordingController, RecordingController
  ) {
    let p = f.controller("P")
    let a = f.controller("A")
    let b = f.controller("B")
    let window = Window(environment: ContainmentEnvironment(clock: clock))
    try await window.setRootViewController(p)
    try await f.install(a, in: p)
    try await p.addChild(b)
    await b.didMove(toParent: p)
    _ = f.log.take()
    return (window, p, a, b)
  }

  @Test func invalidTransitionsThrowAndChangeNothing_T1() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, a, b) = try await setUp(f, clock: clock)
    let stranger = f.controller("S")
    let before = snapshot(p)
    await #expect(throws: ContainmentError.notAChild(child: stranger.node.id, parent: p.node.id)) {
      try await p.transition(from: a, to: stranger)
    }
    await #expect(throws: ContainmentError.sameController(a.node.id)) { try await p.transition(from: a, to: a) }
    await #expect(throws: ContainmentError.viewNotInstalled(b.node.id)) { try await p.transition(from: b, to: a) }
    let c = f.controller("C")
    try await f.install(c, in: p)
    let withC = snapshot(p)
    await #expect(throws: ContainmentError.viewAlreadyInstalled(c.node.id)) { try await p.transition(from: a, to: c) }
    #expect(snapshot(p) == withC)
    #expect(before.count + 1 == withC.count)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func transitionOrdersHooksAroundTheAnimation_T2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, a, b) = try await setUp(f, clock: clock)
    let animated = Locked(false)
    async let outcome = p.transition(
      from: a, to: b, duration: .seconds(1),
      animations: {
        animated.withLock { $0 = true }
      }
    ).value
    await clock.sleepers(atLeast: 1)
    #expect(f.log.take() == ["B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing"])
    // During the animation both views are installed, side by side.
    let superview = try #require(a.viewIfLoaded?.superview)
    #expect(superview.subviews.map { $0 === a.viewIfLoaded } == [true, false])
    #expect(b.viewIfLoaded?.superview === superview)
    #expect(b.viewIfLoaded?.frame == a.viewIfLoaded?.frame)
    clock.advance(by: .milliseconds(999))
    #expect(f.log.all == [])
    clock.advance(by: .milliseconds(1))
    #expect(try await outcome == .completed)
    #expect(f.log.take() == ["A.viewDidDisappear", "B.viewDidAppear"])
    #expect(animated.withLock { $0 })
    #expect(a.viewIfLoaded?.superview == nil)
    #expect(a.parent === p)  // willMove/didMove stay the caller's
    #expect(p.checkInvariants().isEmpty)
    withExtendedLifetime(window) {}
  }

  @Test func aRequestFromTheAnimationsIsPartOfTheTransition_T2_R1() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, a, b) = try await setUp(f, clock: clock)
    let c = f.controller("C")
    let added = Locked<Result<TransactionHandle<Void>, any Error>?>(nil)
    let animated = Gate()
    async let outcome = p.transition(
      from: a, to: b, duration: .seconds(1),
      animations: {
        // Runs inline, in the transition, like a request from the body of a
        // scope: its handle is complete when the call returns.
        let result = await Result { try await p.addChild(c) }
        added.withLock { $0 = result }
        animated.open()
      }
    )
    await animated.wait()
    let handle = try #require(try added.withLock { $0 }?.get())
    #expect(handle.isComplete)
    #expect(c.parent === p)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "C.willMove(P)",
      ])
    clock.advance(by: .seconds(1))
    let transition = try await outcome
    #expect(try await transition.value == .completed)
    #expect(handle.id == transition.id)
    #expect(f.log.take() == ["A.viewDidDisappear", "B.viewDidAppear"])
    withExtendedLifetime(window) {}
  }

  @Test func transitionTimeComesOnlyFromTheInjectedClock_T3() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, a, b) = try await setUp(f, clock: clock)
    async let outcome = p.transition(from: a, to: b, duration: .seconds(3600)).value
    await clock.sleepers(atLeast: 1)
    #expect(clock.sleeperCount == 1)
    #expect(b.node.appearanceState == .appearing)
    #expect(f.log.take() == ["B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing"])
    clock.advance(by: .seconds(3600))
    #expect(try await outcome == .completed)
    #expect(b.node.appearanceState == .appeared)
    #expect(f.log.take() == ["A.viewDidDisappear", "B.viewDidAppear"])
    #expect(clock.now == ManualClock.Instant(offset: .seconds(3600)))
    withExtendedLifetime(window) {}
  }

  /// Where the driving task is cancelled.
  enum CancelPoint: String, CaseIterable, Sendable {
    case outgoingWillHook, incomingWillHook, incomingIsAppearing, animation, outgoingDidHook, incomingDidHook
  }

  @Test(arguments: CancelPoint.allCases)
  func cancellationAtEverySuspensionPointFinishesConsistently_T4(_ point: CancelPoint) async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, a, b) = try await setUp(f, clock: clock)
    let gate = Gate()
    let blockOn: (RecordingController, String)? =
      switch point {
      case .outgoingWillHook: (a, "viewWillDisappear")
      case .incomingWillHook: (b, "viewWillAppear")
      case .incomingIsAppearing: (b, "viewIsAppearing")
      case .animation: nil
      case .outgoingDidHook: (a, "viewDidDisappear")
      case .incomingDidHook: (b, "viewDidAppear")
      }
    if let (controller, hook) = blockOn {
      await controller.setOnHook { name in if name == hook { await gate.wait() } }
    }
    let driver = Task { try await p.transition(from: a, to: b, duration: .seconds(1)).value }
    if blockOn == nil {
      await clock.sleepers(atLeast: 1)
    } else if point == .outgoingDidHook || point == .incomingDidHook {
      await clock.sleepers(atLeast: 1)
      clock.advance(by: .seconds(1))
      await gate.waiters(atLeast: 1)
    } else {
      await gate.waiters(atLeast: 1)
    }
    driver.cancel()
    gate.open()
    // Cancelled after the wait, the transition still reports that it was interrupted.
    #expect(try await driver.value == .interrupted)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear",
      ])
    #expect(a.viewIfLoaded?.superview == nil)
    #expect(b.viewIfLoaded?.superview != nil)
    #expect(a.node.appearanceState == .disappeared)
    #expect(b.node.appearanceState == .appeared)
    #expect(p.checkInvariants().isEmpty)
    #expect(clock.sleeperCount == 0)
    withExtendedLifetime(window) {}
  }

  @Test func cancellationWhileQueuedChangesNothing_T4() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, a, b) = try await setUp(f, clock: clock)
    let c = f.controller("C")
    try await p.addChild(c)
    _ = f.log.take()
    async let first = p.transition(from: a, to: b, duration: .seconds(1)).value
    await clock.sleepers(atLeast: 1)
    let requests = IdleExecutor()
    let queued = Task(executorPreference: requests) {
      try await p.transition(from: b, to: c, duration: .seconds(1)).value
    }
    await requests.idle()
    #expect(p.node.queue.pendingCount == 1)
    queued.cancel()
    await #expect(throws: CancellationError.self) { try await queued.value }
    clock.advance(by: .seconds(1))
    #expect(try await first == .completed)
    #expect(
      f.log.take() == [
        "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
        "A.viewDidDisappear", "B.viewDidAppear",
      ])
    #expect(c.viewIfLoaded == nil)
    withExtendedLifetime(window) {}
  }

  @Test func transitionEventsReportTheOutcome_T4() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let (window, p, a, b) = try await setUp(f, clock: clock)
    var iterator = p.events().makeAsyncIterator()
    _ = await iterator.next()  // snapshot
    try await p.transition(from: a, to: b, options: [.crossDissolve, .curveEaseInOut])
    let began = await iterator.next()
    let ended = await iterator.next()
    #expect(
      began?.kind == .transitionBegan(from: a.node.id, to: b.node.id, options: [.crossDissolve, .curveEaseInOut]))
    #expect(ended?.kind == .transitionEnded(from: a.node.id, to: b.node.id, outcome: .completed))
    #expect(began?.transaction != nil)
    #expect(began?.transaction == ended?.transaction)
    withExtendedLifetime(window) {}
  }
}
