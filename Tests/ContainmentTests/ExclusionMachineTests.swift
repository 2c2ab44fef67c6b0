import ContainmentTestKit
import Testing

@testable import Containment
@testable import ContainmentLocking

/// The decisions of hierarchical exclusion (R4, R5), made one at a time with
/// no task waiting: each test writes down what every request is told, in
/// order, and checks the whole list.
@Suite struct ExclusionMachineTests {
  /// Requests in the tree of `window`, each decided in a section of its own,
  /// described by the names of the controllers involved.
  struct Decisions {
    let window: Window
    let names: [ObjectIdentifier: String]
    var log: [String] = []

    init(_ window: Window, _ controllers: [RecordingController]) {
      self.window = window
      var names = [ObjectIdentifier(window.hierarchy): "window"]
      for controller in controllers { names[ObjectIdentifier(controller.node.hierarchy)] = controller.node.name }
      self.names = names
    }

    func name(_ slot: HierarchySlot) -> String { names[ObjectIdentifier(slot)] ?? "?" }

    /// A top-level request on `controller` that has not waited yet.
    mutating func atOnce(_ controller: RecordingController, adopting: [RecordingController] = [])
      -> ExclusionAdmission?
    {
      let governor = Governor.controller(controller)
      let outcome = HierarchyExclusion.withLinks(of: governor, adopting) { held in
        ExclusionMachine.enterAtOnce(held, governor, adopting: adopting)
      }
      switch outcome {
      case .admitted(let admission):
        log.append("\(controller.node.name) admitted at once")
        return admission
      case .mustWait:
        log.append("\(controller.node.name) must wait")
        return nil
      case .separateFirst:
        log.append("\(controller.node.name) separates its tree first")
        return nil
      }
    }

    /// A top-level request on `controller` that waits, as `waiter`.
    mutating func waiting(
      _ controller: RecordingController, as waiter: ExclusionWaiter, adopting: [RecordingController] = []
    ) -> ExclusionAdmission? {
      let governor = Governor.controller(controller)
      var woken: ExclusionMachine.Woken = []
      let entry = HierarchyExclusion.withLinks(of: governor, adopting, touching: [waiter.mark]) { held in
        ExclusionMachine.enter(held, governor, adopting: adopting, waiter: waiter, woken: &woken)
      }
      switch entry {
      case .admitted(let admission):
        log.append("\(controller.node.name) admitted")
        return admission
      case .wait(on: let slot):
        log.append("\(controller.node.name) waits on \(name(slot))\(waiter.isPending ? ", pending" : "")")
        return nil
      }
    }

    /// A nested request on `controller`, started inside `chain`.
    mutating func nested(_ controller: RecordingController, inside chain: [TransactionContext], _ label: String)
      -> ExclusionAdmission?
    {
      let admission = HierarchyExclusion.tryEnterNested(.controller(controller), chain: chain)
      log.append("\(controller.node.name) nested \(label) \(admission == nil ? "refused" : "admitted")")
      return admission
    }

    mutating func leave(_ admission: ExclusionAdmission?, _ label: String) throws {
      HierarchyExclusion.leave(try #require(admission))
      log.append("\(label) ends")
    }
  }

  @Test func aRequestBelowARunningTransactionWaitsForItsSlot() async throws {
    let fixture = Fixture()
    let (window, r, p, c) = try await fixture.tree()
    var decisions = Decisions(window, [r, p, c])
    let onP = decisions.atOnce(p)
    #expect(decisions.atOnce(c) == nil)
    let waiter = ExclusionWaiter()
    #expect(decisions.waiting(c, as: waiter) == nil)
    try decisions.leave(onP, "P")
    let onC = decisions.waiting(c, as: waiter)
    try decisions.leave(onC, "C")
    let onR = decisions.atOnce(r)
    try decisions.leave(onR, "R")
    #expect(
      decisions.log == [
        "P admitted at once", "C must wait", "C waits on P", "P ends", "C admitted", "C ends",
        "R admitted at once", "R ends",
      ])
  }

  @Test func aRequestAboveARunningTransactionIsPendingAndLaterOnesBelowWaitBehindIt() async throws {
    let fixture = Fixture()
    let (window, r, p, c) = try await fixture.tree()
    var decisions = Decisions(window, [r, p, c])
    let onC = decisions.atOnce(c)
    let onR = ExclusionWaiter()
    #expect(decisions.waiting(r, as: onR) == nil)
    // P would run before R, which waits for its descendants: it waits behind R.
    #expect(decisions.atOnce(p) == nil)
    let onP = ExclusionWaiter()
    #expect(decisions.waiting(p, as: onP) == nil)
    try decisions.leave(onC, "C")
    let admittedR = decisions.waiting(r, as: onR)
    #expect(decisions.waiting(p, as: onP) == nil)
    try decisions.leave(admittedR, "R")
    let admittedP = decisions.waiting(p, as: onP)
    try decisions.leave(admittedP, "P")
    #expect(
      decisions.log == [
        "C admitted at once", "R waits on R, pending", "P must wait", "P waits on R", "C ends", "R admitted",
        "P waits on R", "R ends", "P admitted", "P ends",
      ])
  }

  @Test func siblingsRunSideBySideAndTheirParentWaitsForBoth() async throws {
    let fixture = Fixture()
    let (window, r, p, c) = try await fixture.tree()
    let q = fixture.controller("Q")
    try await fixture.install(q, in: r)
    var decisions = Decisions(window, [r, p, c, q])
    let onP = decisions.atOnce(p)
    let onQ = decisions.atOnce(q)
    let onR = ExclusionWaiter()
    #expect(decisions.waiting(r, as: onR) == nil)
    try decisions.leave(onP, "P")
    #expect(decisions.waiting(r, as: onR) == nil)
    try decisions.leave(onQ, "Q")
    let admittedR = decisions.waiting(r, as: onR)
    try decisions.leave(admittedR, "R")
    #expect(
      decisions.log == [
        "P admitted at once", "Q admitted at once", "R waits on R, pending", "P ends", "R waits on R, pending",
        "Q ends", "R admitted", "R ends",
      ])
  }

  @Test func aNestedRequestOverlapsOnlyItsOwnChain() async throws {
    let fixture = Fixture()
    let (window, r, p, c) = try await fixture.tree()
    var decisions = Decisions(window, [r, p, c])
    let onP = decisions.atOnce(p)
    let chain = [TransactionContext(id: .next(), governor: .controller(p), outer: nil)]
    #expect(decisions.nested(c, inside: [], "outside P's transaction") == nil)
    let nested = decisions.nested(c, inside: chain, "inside P's transaction")
    #expect(decisions.nested(r, inside: chain, "above P's transaction") == nil)
    try decisions.leave(nested, "C")
    try decisions.leave(onP, "P")
    #expect(
      decisions.log == [
        "P admitted at once", "C nested outside P's transaction refused", "C nested inside P's transaction admitted",
        "R nested above P's transaction refused", "C ends", "P ends",
      ])
  }

  @Test func aTransactionAdoptingABusyTreeWaitsForItAndThatTreeWaitsForTheAdoption() async throws {
    let fixture = Fixture()
    let r = fixture.controller("R")
    let window = try await fixture.onScreen(r)
    let x = fixture.controller("X")
    let y = fixture.controller("Y")
    try await fixture.install(y, in: x)
    var decisions = Decisions(window, [r, x, y])
    let onY = decisions.atOnce(y)
    // R would link X's tree into its own (as `addChild(X)` does).
    #expect(decisions.atOnce(r, adopting: [x]) == nil)
    let adopter = ExclusionWaiter()
    #expect(decisions.waiting(r, as: adopter, adopting: [x]) == nil)
    try decisions.leave(onY, "Y")
    let onR = decisions.waiting(r, as: adopter, adopting: [x])
    // Until R's transaction ends, X's tree admits nothing.
    #expect(decisions.atOnce(y) == nil)
    let laterY = ExclusionWaiter()
    #expect(decisions.waiting(y, as: laterY) == nil)
    try decisions.leave(onR, "R")
    let admittedY = decisions.waiting(y, as: laterY)
    try decisions.leave(admittedY, "Y")
    #expect(
      decisions.log == [
        "Y admitted at once", "R must wait", "R waits on X", "Y ends", "R admitted", "Y must wait", "Y waits on X",
        "R ends", "Y admitted", "Y ends",
      ])
  }
}
