import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// §8 for lifetimes: torn-down trees, released windows, calls that
/// cannot throw, subscriber policies and requests hooks make without end.
///
/// Each refusal is a typed error or a `callIgnored` event, and the tree is
/// unchanged.
@Suite(.timeLimit(.minutes(1)))
struct LifetimeMisuseTests {
  @Test func everyVerbOnATornDownWindowIsRefusedAndChangesNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    let plain = View(label: "plain")
    try await p.view.addSubview(plain)
    try await window.tearDown()
    #expect(
      f.log.take() == [
        "R.viewWillDisappear", "P.viewWillDisappear", "C.viewWillDisappear",
        "R.viewDidDisappear", "P.viewDidDisappear", "C.viewDidDisappear",
        "C.viewDidTearDown", "P.viewDidTearDown", "R.viewDidTearDown",
      ])
    let before = snapshot(r)
    let cView = try #require(c.viewIfLoaded)

    // A second teardown does nothing.
    try await window.tearDown()
    // The window names itself; a fresh controller is not the one torn down.
    let fresh = f.controller("F")
    await #expect(throws: ContainmentError.windowTornDown) { try await window.setRootViewController(fresh) }
    await #expect(throws: ContainmentError.windowTornDown) {
      try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact))
    }
    await #expect(throws: ContainmentError.windowTornDown) { try await window.rootView.addSubview(View()) }
    // Views: the torn-down controller whose view moves, else the container.
    await #expect(throws: ContainmentError.tornDown(c.node.id)) { try await cView.removeFromSuperview() }
    await #expect(throws: ContainmentError.tornDown(p.node.id)) { try await plain.removeFromSuperview() }
    await #expect(throws: ContainmentError.tornDown(p.node.id)) { try await p.view.addSubview(View()) }
    await #expect(throws: ContainmentError.tornDown(p.node.id)) {
      try await p.withTransaction { _ in await c.willMove(toParent: nil) }
    }
    // Calls that cannot throw: no hook, no change.
    await c.beginAppearanceTransition(true, animated: false)
    await c.endAppearanceTransition()
    await c.willMove(toParent: nil)
    await c.didMove(toParent: nil)
    await p.beginAppearanceTransition(false, animated: false)
    await p.endAppearanceTransition()

    #expect(f.log.take() == [])
    #expect(snapshot(r) == before)
    #expect(cView.superview === p.viewIfLoaded)
    #expect(plain.superview === p.viewIfLoaded)
    #expect(window.traitCollection == TraitCollection())
    #expect(window.rootViewController == nil)
    #expect(fresh.node.appearanceState == .disappeared)
    #expect(c.node.isMovingFromParent == false)
    #expect(r.checkInvariants().isEmpty)
  }

  /// A torn-down subtree has left its tree (V3) and its streams have
  /// ended: calls that cannot throw run no hook and change nothing, and
  /// nothing more is heard of it.
  @Test func callsThatCannotThrowOnATornDownSubtreeChangeNothing_misuse() async throws {
    let f = Fixture()
    let (window, r, p, c) = try await f.tree()
    var own = c.events().makeAsyncIterator()
    _ = await own.next()
    await p.tearDown()
    #expect(
      f.log.take() == [
        "P.willMove(nil)", "P.viewWillDisappear", "C.viewWillDisappear", "P.viewDidDisappear", "C.viewDidDisappear",
        "P.didMove(nil)", "C.viewDidTearDown", "P.viewDidTearDown",
      ])
    let before = snapshot(r)
    await c.beginAppearanceTransition(true, animated: false)
    await c.endAppearanceTransition()
    await c.willMove(toParent: nil)
    await c.didMove(toParent: nil)
    #expect(f.log.take() == [])
    #expect(snapshot(r) == before)
    #expect(c.node.appearanceState == .disappeared)
    var heard: [String] = []
    while let event = await own.next() { heard.append("\(event.kind)") }
    #expect(
      heard == [
        "viewWillDisappear(animated: false)", "viewDidDisappear(animated: false)", "viewDidTearDown", "terminated",
      ])
    #expect(r.checkInvariants().isEmpty && p.checkInvariants().isEmpty)
    #expect(window.rootViewController === r)
  }

  @Test func aReleasedWindowLeavesItsTreeDisappearedAndANewWindowShowsIt_misuse() async throws {
    let f = Fixture()
    var (window, r, p, c): (Window?, RecordingController, RecordingController, RecordingController) = try await f.tree()
    weak let released = window
    window = nil
    #expect(released == nil)
    #expect(f.log.take() == [])
    #expect([r, p, c].map(\.node.appearanceState) == [.disappeared, .disappeared, .disappeared])
    #expect(r.checkInvariants().isEmpty)
    #expect(r.viewIfLoaded?.window == nil)

    let next = Window()
    try await next.setRootViewController(r)
    #expect(
      f.log.take() == [
        "R.viewWillAppear", "P.viewWillAppear", "C.viewWillAppear",
        "R.viewIsAppearing", "P.viewIsAppearing", "C.viewIsAppearing",
        "R.viewDidAppear", "P.viewDidAppear", "C.viewDidAppear",
      ])
    #expect([r, p, c].map(\.node.appearanceState) == [.appeared, .appeared, .appeared])
    #expect(r.checkInvariants().isEmpty)
  }

  @Test func committingABatchOnAnAutomaticContainerThrowsAndChangesNothing_A7() async throws {
    let f = Fixture()
    let (window, r, p, _) = try await f.tree()
    let before = snapshot(r)
    var batch = AppearanceBatch()
    batch.disappear(p)
    await #expect(throws: ContainmentError.batchNeedsManualForwarding(r.node.id)) { try await r.commit(batch) }
    #expect(f.log.take() == [])
    #expect(snapshot(r) == before)
    #expect(r.checkInvariants().isEmpty)
    #expect(window.rootViewController === r)
  }

  @Test func appearingWithoutAParentOrAWindowIsRefusedWithADiagnostic_A4() async throws {
    let f = Fixture()
    let s = f.controller("S")
    _ = await s.view
    _ = f.log.take()
    var events = s.events().makeAsyncIterator()
    await s.beginAppearanceTransition(true, animated: false)
    await s.endAppearanceTransition()
    #expect(
      await take(3, from: &events).map(\.kind) == [
        .subscribed(state: .disappeared, parent: nil),
        .callIgnored(.appearingWithoutWindow),
        .unbalancedAppearanceTransition(.endWithoutBegin),
      ])
    #expect(f.log.take() == [])
    #expect(s.node.appearanceState == .disappeared)
    #expect(s.checkInvariants().isEmpty)
  }

  @Test func aZeroSizedSubscriberBufferIsRaisedToOne_E4() async throws {
    let f = Fixture()
    let c = f.controller("C")
    #expect(SubscriberPolicy.keepNewest(0).capacity == 1)
    #expect(SubscriberPolicy.disconnectOnLag(-3).capacity == 1)
    var newest = c.events(policy: .keepNewest(0)).makeAsyncIterator()
    var lagging = c.events(policy: .disconnectOnLag(0)).makeAsyncIterator()
    await c.willMove(toParent: nil)
    await c.willMove(toParent: nil)
    // The snapshot is kept apart (E5); the buffer of one holds the newest event.
    #expect(
      await take(3, from: &newest).map(\.kind) == [
        .subscribed(state: .disappeared, parent: nil), .eventsLost(count: 1), .willMove(toParent: nil),
      ])
    #expect(
      await take(3, from: &lagging).map(\.kind) == [.subscribed(state: .disappeared, parent: nil), .lagged])
    #expect(f.log.take() == ["C.willMove(nil)", "C.willMove(nil)"])
    #expect(c.checkInvariants().isEmpty)
  }

  /// Each child's `willMove` asks its container to add the next child: a
  /// chain that never ends by itself, drained by the first caller's task.
  ///
  /// Cancelling that task stops it: the request queued after the
  /// cancellation completes with `CancellationError` and changes nothing.
  @Test func cancellingTheDrainingTaskStopsRequestsHooksKeepQueueing_R3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let gate = Gate()
    let queued = Locked<[TransactionHandle<Void>]>([])
    @Sendable func feeding(_ index: Int) async -> RecordingController {
      let child = f.controller("C\(index)")
      await child.setOnHook { hook in
        guard hook == "willMove" else { return }
        if index == 5 { await gate.wait() }
        do {
          let handle = try await p.addChild(await feeding(index + 1))
          queued.withLock { $0.append(handle) }
        } catch {
          f.log.append("C\(index) request failed: \(error)")
        }
      }
      return child
    }
    let first = await feeding(1)
    let caller = Task { try await p.addChild(first) }
    await gate.waiters(atLeast: 1)
    caller.cancel()
    gate.open()
    _ = try await caller.value
    #expect(f.log.take() == (1...5).map { "C\($0).willMove(P)" })
    #expect(names(p.children) == ["C1", "C2", "C3", "C4", "C5"])
    let handles = queued.withLock { $0 }
    #expect(handles.count == 5)
    #expect(handles.dropLast().allSatisfy { if case .success? = $0.result { true } else { false } })
    let last = try #require(handles.last?.result)
    #expect(throws: CancellationError.self) { try last.get() }
    #expect(p.checkInvariants().isEmpty)
  }
}
