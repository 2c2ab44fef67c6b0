import Testing

@testable import Containment

/// A container's FIFO queue (R1, R2) gives itself up at once only when
/// nothing waits: a queued job or a waiting task is served first, in request
/// order, and a release that finds one changes nothing by itself.
struct TransactionQueueStateMachineTests {
  typealias Machine = TransactionQueueStateMachine<String, String>

  /// Each step's result, readable in one list.
  static func describe(_ action: Machine.ReleaseAction) -> String {
    switch action {
    case .run(let job): "run \(job)"
    case .handOff(let waiter): "hand off to \(waiter)"
    case .idle: "idle"
    }
  }

  @Test func aQueueNobodyWaitsForIsGivenUpAtOnceAndCanBeTakenAgain_R1() {
    var machine = Machine()
    var steps: [String] = []
    steps.append("take \(machine.tryAcquire())")
    steps.append("free at once \(machine.releaseIfIdle())")
    steps.append("held \(machine.isHeld), pending \(machine.pendingCount)")
    steps.append("take \(machine.tryAcquire())")
    #expect(steps == ["take true", "free at once true", "held false, pending 0", "take true"])
  }

  @Test func queuedWorkKeepsTheQueueUntilItHasRunInRequestOrder_R1_R2() {
    var machine = Machine()
    var steps: [String] = []
    _ = machine.tryAcquire()
    _ = machine.post("job A")
    let waiter = machine.makeWaiterID()
    _ = machine.acquire(id: waiter, continuation: "task B")
    _ = machine.post("job C")
    steps.append("free at once \(machine.releaseIfIdle())")
    steps.append("held \(machine.isHeld), pending \(machine.pendingCount)")
    steps.append(Self.describe(machine.release()))
    steps.append(Self.describe(machine.release()))
    steps.append("held \(machine.isHeld), pending \(machine.pendingCount)")
    steps.append(Self.describe(machine.release()))
    steps.append(Self.describe(machine.release()))
    steps.append("held \(machine.isHeld), pending \(machine.pendingCount)")
    #expect(
      steps == [
        "free at once false", "held true, pending 3",
        "run job A", "hand off to task B", "held true, pending 1",
        "run job C", "idle", "held false, pending 0",
      ])
  }
}
