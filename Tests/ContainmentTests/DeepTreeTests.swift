import ContainmentTestKit
import Testing

@testable import Containment

/// Depth costs nothing per operation (R5): a chain 100,000 controllers
/// deep is built, shown, checked, torn down and released in linear time,
/// without recursion deep enough to overflow a stack.
// Linear: a few seconds in a debug build (about 25 under Thread Sanitizer);
// quadratic, it would take hours.
@Suite(.timeLimit(.minutes(3)))
struct DeepTreeTests {
  static let depth = 100_000

  @Test func aDeepChainIsBuiltShownTornDownAndReleasedInLinearTime_R5() async throws {
    let f = Fixture()
    weak var weakRoot: RecordingController?
    weak var weakLeaf: RecordingController?
    var window: Window? = Window()
    do {
      let root = f.controller("C0")
      var last = root
      for index in 1..<Self.depth {
        let next = f.controller("C\(index)")
        try await last.addChild(next)
        last = next
      }
      #expect(f.log.take() == (1..<Self.depth).map { "C\($0).willMove(C\($0 - 1))" })
      #expect(root.checkInvariants().isEmpty)

      try await window?.setRootViewController(root)
      #expect(f.log.take() == ["C0.viewDidLoad", "C0.viewWillAppear", "C0.viewIsAppearing", "C0.viewDidAppear"])
      #expect(root.checkInvariants().isEmpty)

      try await window?.tearDown()
      // Off screen, then the stop hooks, leaf first (V3).
      #expect(
        f.log.take() == ["C0.viewWillDisappear", "C0.viewDidDisappear"]
          + (0..<Self.depth).reversed().map { "C\($0).viewDidTearDown" })
      #expect(last.node.isTornDown)
      #expect(last.node.parent?.node.name == "C\(Self.depth - 2)")
      #expect(root.checkInvariants().isEmpty)
      weakRoot = root
      weakLeaf = last
    }
    window = nil
    settleReleases()
    #expect(weakRoot == nil)
    #expect(weakLeaf == nil)
    #expect(f.log.take() == [])
  }
}
