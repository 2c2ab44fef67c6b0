import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// Waiting for a queued request's outcome through its handle.
@Suite(.timeLimit(.minutes(1)))
struct TransactionHandleTests {
  /// Cancelling a task that awaits a queued request's `value` ends that wait
  /// with `CancellationError` and nothing else (R3).
  ///
  /// The request still runs when its turn comes, and another task waiting
  /// for the same handle gets its outcome.
  @Test func cancellingAWaitForAQueuedRequestEndsOnlyThatWait_R3() async throws {
    let f = Fixture()
    let p = f.controller("P")
    let c = f.controller("C")
    let g = f.controller("G")
    let window = try await f.onScreen(p)
    let gate = Gate()
    let queued = Locked<TransactionHandle<Void>?>(nil)
    await c.setOnHook { name in
      guard name == "viewDidAppear", queued.withLock({ $0 == nil }) else { return }
      do {
        let handle = try await c.addChild(g)
        f.log.append("queued complete=\(handle.isComplete)")
        queued.withLock { $0 = handle }
      } catch {
        f.log.append("refused \(error)")
      }
    }
    // The request is made inside this scope, so it waits for the scope's end.
    async let scope = p.withTransaction { _ in
      try await p.addChild(c)
      try await p.view.addSubview(await c.view)
      await c.didMove(toParent: p)
      await gate.wait()
    }
    await gate.waiters(atLeast: 1)
    let handle = try #require(queued.withLock { $0 })
    let cancelled = Task { try await handle.value }
    let waiting = Task { try await handle.value }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(!handle.isComplete)
    f.log.append("wait cancelled")
    gate.open()
    _ = try await scope
    try await waiting.value
    #expect(handle.isComplete)
    #expect(
      f.log.take() == [
        "C.willMove(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear",
        "queued complete=false", "C.didMove(P)", "wait cancelled", "G.willMove(C)",
      ])
    #expect(names(c.children) == ["G"])
    withExtendedLifetime(window) {}
    #expect(p.checkInvariants().isEmpty)
  }
}
