import Testing

@testable import Containment

/// Back-links (a child's parent, a view's superview, owner and window) never
/// keep their targets alive and read as nil once a target is released, like
/// `weak` references, without making their targets weak targets.
struct BackLinkTests {
  final class Target: Sendable {}

  @Test func aBackLinkReadsItsTargetWhileItLivesAndNilOnceReleased_invariants() {
    var target: Target? = Target()
    let link = BackLink(target!)
    #expect(link.value === target)
    #expect(link.refers(to: target!))
    #expect(!link.refers(to: Target()))
    weak let released = target
    target = nil
    #expect(released == nil)
    #expect(link.value == nil)
  }

  @Test func aControllerBackLinkReadsItsControllerWhileItLivesAndNilOnceReleased_invariants() {
    var controller: NavigationController? = NavigationController(name: "N")
    let link = ControllerBackLink(controller!)
    #expect(link.value === controller)
    #expect(link.refers(to: controller!))
    #expect(!link.refers(to: NavigationController(name: "M")))
    weak let released = controller
    controller = nil
    #expect(released == nil)
    #expect(link.value == nil)
  }
}
