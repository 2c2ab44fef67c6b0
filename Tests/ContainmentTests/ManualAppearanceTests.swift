import ContainmentTestKit
import Testing

@testable import Containment

/// §3 A3, A4, A6, A7: manual forwarding, nesting, reversal, coalesced batches.
@Suite(.timeLimit(.minutes(1)))
struct ManualAppearanceTests {
  /// A manual-forwarding container M on screen with children installed; returns the window.
  private func manualContainer(
    _ f: Fixture, children: [RecordingController], clock: ManualClock = ManualClock()
  ) async throws -> (Window, RecordingController) {
    let m = f.controller("M", forwards: false)
    let window = Window(environment: ContainmentEnvironment(clock: clock))
    try await window.setRootViewController(m)
    for child in children { try await f.install(child, in: m) }
    _ = f.log.take()
    return (window, m)
  }

  /// The kinds of the events a subscription has received so far, without the snapshot.
  private func drain(_ iterator: inout LifecycleEvents.AsyncIterator, count: Int) async -> [LifecycleEvent.Kind] {
    var kinds: [LifecycleEvent.Kind] = []
    for _ in 0..<count { if let event = await iterator.next() { kinds.append(event.kind) } }
    return kinds
  }

  @Test func manualContainerForwardsNothingAutomatically_A6() async throws {
    let f = Fixture()
    let c = f.controller("C")
    let (window, m) = try await manualContainer(f, children: [c])
    #expect(c.node.appearanceState == .disappeared)
    try await window.setRootViewController(nil)
    try await window.setRootViewController(m)
    #expect(
      f.log.take() == [
        "M.viewWillDisappear", "M.viewDidDisappear",
        "M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear",
      ])
    await c.beginAppearanceTransition(true, animated: false)
    await c.endAppearanceTransition()
    #expect(f.log.take() == ["C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear"])
    #expect(m.checkInvariants().isEmpty)
  }

  /// A manual container that forwards to its child from its own hooks, on
  /// its own actor: the UIKit pattern. Only `C`'s hooks hop.
  private actor ForwardingFromHooks: ViewController {
    nonisolated let node = ControllerNode(name: "M")
    nonisolated let log: HookLog
    private var child: (any ViewController)?

    init(log: HookLog) { self.log = log }

    nonisolated var shouldAutomaticallyForwardAppearanceMethods: Bool { false }
    func forward(to child: any ViewController) { self.child = child }

    func viewWillAppear(_ animated: Bool) async {
      log.append("M.viewWillAppear")
      await child?.beginAppearanceTransition(true, animated: animated)
    }
    func viewDidAppear(_ animated: Bool) async {
      log.append("M.viewDidAppear")
      await child?.endAppearanceTransition()
    }
    func viewWillDisappear(_ animated: Bool) async {
      log.append("M.viewWillDisappear")
      await child?.beginAppearanceTransition(false, animated: animated)
    }
    func viewDidDisappear(_ animated: Bool) async {
      log.append("M.viewDidDisappear")
      await child?.endAppearanceTransition()
    }
  }

  @Test func aContainerForwardsFromItsOwnHooksOnItsOwnActor_A6() async throws {
    let f = Fixture()
    let m = ForwardingFromHooks(log: f.log)
    let c = f.controller("C")
    try await m.addChild(c)
    try await m.view.addSubview(await c.view)
    await c.didMove(toParent: m)
    await m.forward(to: c)
    _ = f.log.take()
    var events = c.events().makeAsyncIterator()
    _ = await events.next()  // the snapshot
    let window = Window()
    let handle = try await window.setRootViewController(m)
    #expect(
      f.log.take() == [
        "M.viewWillAppear", "C.viewWillAppear", "M.viewDidAppear", "C.viewIsAppearing", "C.viewDidAppear",
      ])
    // The child's hooks belong to the transaction whose hooks forwarded them.
    var transactions: [TransactionID?] = []
    for _ in 0..<3 { transactions.append(await events.next()?.transaction) }
    #expect(transactions == [handle.id, handle.id, handle.id])
    #expect(c.node.appearanceState == .appeared)
    try await window.setRootViewController(nil)
    #expect(f.log.take() == ["M.viewWillDisappear", "C.viewWillDisappear", "M.viewDidDisappear", "C.viewDidDisappear"])
    #expect(c.node.appearanceState == .disappeared)
    #expect(m.checkInvariants().isEmpty)
  }

  @Test func reversalCancelsAnAppearanceTransition_A3() async throws {
    let f = Fixture()
    let c = f.controller("C")
    let (window, _) = try await manualContainer(f, children: [c])
    await c.beginAppearanceTransition(true, animated: false)
    await c.endAppearanceTransition()
    _ = f.log.take()
    await c.beginAppearanceTransition(false, animated: true)
    await c.beginAppearanceTransition(true, animated: true)
    await c.endAppearanceTransition()
    #expect(f.log.take() == ["C.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear"])
    #expect(c.node.appearanceState == .appeared)
    #expect(window.rootViewController != nil)
  }

  @Test func repeatedBeginFiresOneWillAndTheDidAtLevelZero_A3() async throws {
    let f = Fixture()
    let c = f.controller("C")
    let (window, _) = try await manualContainer(f, children: [c])
    var events = c.events().makeAsyncIterator()
    _ = await events.next()
    await c.beginAppearanceTransition(true, animated: false)
    await c.beginAppearanceTransition(true, animated: false)
    await c.endAppearanceTransition()
    #expect(f.log.take() == ["C.viewWillAppear"])
    #expect(c.node.appearanceState == .appearing)
    await c.endAppearanceTransition()
    #expect(f.log.take() == ["C.viewIsAppearing", "C.viewDidAppear"])
    #expect(
      await drain(&events, count: 4) == [
        .viewWillAppear(animated: false),
        .unbalancedAppearanceTransition(.nestedBegin(isAppearing: true)),
        .viewIsAppearing(animated: false),
        .viewDidAppear(animated: false),
      ])
    #expect(window.rootViewController != nil)
  }

  @Test func endWithoutBeginIsIgnoredAndReported_A4() async throws {
    let f = Fixture()
    let c = f.controller("C")
    let (window, m) = try await manualContainer(f, children: [c])
    var events = c.events().makeAsyncIterator()
    #expect(await events.next()?.kind == .subscribed(state: .disappeared, parent: m.node.id))
    await c.endAppearanceTransition()
    await c.beginAppearanceTransition(false, animated: false)
    #expect(f.log.take() == [])
    #expect(c.node.appearanceState == .disappeared)
    #expect(
      await drain(&events, count: 2) == [
        .unbalancedAppearanceTransition(.endWithoutBegin),
        .unbalancedAppearanceTransition(.alreadyInState(.disappeared)),
      ])
    // The state machine is intact: a balanced pair still works.
    await c.beginAppearanceTransition(true, animated: false)
    await c.endAppearanceTransition()
    #expect(f.log.take() == ["C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear"])
    withExtendedLifetime(window) {}
  }

  @Test func batchDeliversEachNetChangeOnceInOrder_A7() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let x = f.controller("X")
    let y = f.controller("Y")
    let z = f.controller("Z")
    let (window, m) = try await manualContainer(f, children: [x, y, z], clock: clock)
    await x.beginAppearanceTransition(true, animated: false)
    await x.endAppearanceTransition()
    _ = f.log.take()
    var tree = m.treeEvents().makeAsyncIterator()
    _ = await tree.next()
    var batch = AppearanceBatch()
    batch.appear(z)
    batch.disappear(x)
    batch.appear(y)
    async let outcome = m.commit(batch, duration: .milliseconds(300)).value
    await clock.sleepers(atLeast: 1)
    #expect(
      f.log.take() == [
        "X.viewWillDisappear", "Y.viewWillAppear", "Z.viewWillAppear", "Y.viewIsAppearing", "Z.viewIsAppearing",
      ])
    clock.advance(by: .milliseconds(300))
    #expect(try await outcome == .completed)
    #expect(f.log.take() == ["X.viewDidDisappear", "Y.viewDidAppear", "Z.viewDidAppear"])
    var transactions: Set<TransactionID?> = []
    var kinds: [String] = []
    for _ in 0..<9 {
      let event = try #require(await tree.next())
      transactions.insert(event.transaction)
      kinds.append("\(event.name) \(event.kind)")
    }
    #expect(transactions.count == 1)
    #expect(transactions.first! != nil)
    #expect(kinds.last == "M batchCommitted(disappearing: [\(x.node.id)], appearing: [\(y.node.id), \(z.node.id)])")
    withExtendedLifetime(window) {}
  }

  @Test func appearThenDisappearInOneBatchDeliversNothing_A7() async throws {
    let f = Fixture()
    let x = f.controller("X")
    let y = f.controller("Y")
    let (window, m) = try await manualContainer(f, children: [x, y])
    await y.beginAppearanceTransition(true, animated: false)
    await y.endAppearanceTransition()
    _ = f.log.take()
    var batch = AppearanceBatch()
    batch.appear(x)
    batch.disappear(x)
    batch.disappear(y)
    batch.appear(y)
    #expect(try await m.commit(batch).value == .completed)
    #expect(f.log.take() == [])
    #expect(x.node.appearanceState == .disappeared)
    #expect(y.node.appearanceState == .appeared)
    withExtendedLifetime(window) {}
  }

  @Test func batchNamingAStrangerThrowsAndChangesNothing_A7() async throws {
    let f = Fixture()
    let x = f.controller("X")
    let (window, m) = try await manualContainer(f, children: [x])
    let stranger = f.controller("S")
    let before = snapshot(m)
    var batch = AppearanceBatch()
    batch.appear(x)
    batch.appear(stranger)
    await #expect(throws: ContainmentError.notAChild(child: stranger.node.id, parent: m.node.id)) {
      try await m.commit(batch)
    }
    #expect(snapshot(m) == before)
    #expect(f.log.take() == [])
    withExtendedLifetime(window) {}
  }

  @Test func cancelledBatchStillBalancesEveryHook_A7() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let x = f.controller("X")
    let y = f.controller("Y")
    let (window, m) = try await manualContainer(f, children: [x, y], clock: clock)
    var batch = AppearanceBatch()
    batch.appear(x)
    batch.appear(y)
    let driver = Task { try await m.commit(batch, duration: .seconds(1)).value }
    await clock.sleepers(atLeast: 1)
    driver.cancel()
    #expect(try await driver.value == .interrupted)
    #expect(
      f.log.take() == [
        "X.viewWillAppear", "Y.viewWillAppear", "X.viewIsAppearing", "Y.viewIsAppearing",
        "X.viewDidAppear", "Y.viewDidAppear",
      ])
    withExtendedLifetime(window) {}
  }
}
