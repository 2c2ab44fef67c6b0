import ContainmentTestKit
import Testing

@testable import Containment

/// A custom container that shows its last child; when the runtime takes a
/// child out (a fault, a teardown), it shows the one before.
private actor ShowsLast: ViewController, ChildRemovalPolicy {
  nonisolated let node: ControllerNode
  let log: HookLog

  init(_ name: String, log: HookLog) {
    node = ControllerNode(name: name)
    self.log = log
  }

  func childrenChange(removing child: any ViewController, reason: RemovalReason) async -> ChildrenChange? {
    log.append("\(node.name).childrenChange(removing: \(child.node.name), \(reason))")
    let remaining = node.children.filter { $0 !== child }
    return ChildrenChange(children: remaining, shown: remaining.last.map { [$0] } ?? [])
  }
}

/// R6: a custom container gets the built-in containers' guarantees — its
/// own removal reasons (V4), and its own rules when the runtime takes a child
/// out (V2, V3).
@Suite(.timeLimit(.minutes(1)))
struct ChildRemovalPolicyTests {
  /// K (showing B over A) in R, on screen.
  private func tree(_ f: Fixture, _ window: Window) async throws
    -> (RecordingController, ShowsLast, RecordingController, RecordingController)
  {
    let r = f.controller("R")
    let k = ShowsLast("K", log: f.log)
    let a = f.controller("A")
    let b = f.controller("B")
    try await window.setRootViewController(r)
    try await r.addChild(k)
    try await r.view.addSubview(await k.view)
    await k.didMove(toParent: r)
    try await k.changeChildren(ChildrenChange(children: [a, b], shown: [b]))
    _ = f.log.take()
    return (r, k, a, b)
  }

  @Test func aCustomContainersChangeSaysItsOwnRemovalReason_R6_V4() async throws {
    let f = Fixture()
    let window = Window()
    let (_, k, a, b) = try await tree(f, window)
    var events = k.events().makeAsyncIterator()
    _ = await events.next()
    var pop = ChildrenChange(children: [a], shown: [a])
    pop.reason = .popped
    try await k.changeChildren(pop)
    #expect(
      f.log.take() == [
        "B.willMove(nil)", "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
        "B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)",
      ])
    #expect(await removals(1, from: &events, [k, b]) == ["K childRemoved(B, popped)"])
  }

  @Test func aTornDownChildLeavesACustomContainerByItsRules_R6_V3() async throws {
    let f = Fixture()
    let window = Window()
    let (_, k, a, b) = try await tree(f, window)
    var events = k.events().makeAsyncIterator()
    _ = await events.next()
    await b.tearDown()
    #expect(
      f.log.take() == [
        "K.childrenChange(removing: B, tornDown)", "B.willMove(nil)", "A.viewDidLoad", "B.viewWillDisappear",
        "A.viewWillAppear", "A.viewIsAppearing", "B.viewDidDisappear", "A.viewDidAppear", "B.didMove(nil)",
        "B.viewDidTearDown",
      ])
    #expect(await removals(1, from: &events, [k, b]) == ["K childRemoved(B, tornDown)"])
    #expect(names(k.children) == ["A"] && a.viewIfLoaded?.window === window && k.checkInvariants().isEmpty)
  }

  @Test func aFaultedChildLeavesACustomContainerByItsRules_R6_V2() async throws {
    let f = Fixture()
    let clock = ManualClock()
    let window = Window(environment: ContainmentEnvironment(clock: clock, hookDeadline: .seconds(1)))
    let (r, k, _, b) = try await tree(f, window)
    let hung = await hang(b, in: "traitCollectionDidChange")
    let change = Task { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) }
    await hung.waiters(atLeast: 1)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    try await change.value
    try await k.waitUntil(.idle)
    #expect(
      f.log.take() == [
        "R.traitCollectionDidChange", "A.traitCollectionDidChange", "B.traitCollectionDidChange",
        "K.childrenChange(removing: B, faulted)", "A.viewDidLoad", "A.viewWillAppear", "A.viewIsAppearing",
        "A.viewDidAppear",
      ])
    #expect(names(k.children) == ["A"] && b.isFaulted && b.parent == nil)
    hung.open()
    #expect(r.checkInvariants().isEmpty)
  }
}
