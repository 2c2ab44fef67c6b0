import Containment
import ContainmentTestKit
import Testing

/// §1: the headless view model's constraints, resolved by a layout pass.
@Suite(.timeLimit(.minutes(1)))
struct ViewLayoutTests {
  @Test func layoutPassResolvesEdgesSizeAndCenter_views() async throws {
    let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 300), label: "root")
    let content = View(label: "content")
    let badge = View(label: "badge")
    let sidebar = View(label: "sidebar")
    try await root.addSubview(sidebar)
    try await root.addSubview(content)
    try await content.addSubview(badge)
    root.addConstraints(
      [
        sidebar.constraint(.left, equalTo: root),
        sidebar.constraint(.top, equalTo: root),
        sidebar.constraint(.bottom, equalTo: root),
        sidebar.constraint(.width, equalTo: root, multiplier: 0.25),
        content.constraint(.left, equalTo: sidebar, .right, constant: 10),
        content.constraint(.right, equalTo: root),
        content.constraint(.top, equalTo: root, constant: 20),
        content.constraint(.bottom, equalTo: root),
      ])
    content.addConstraints(
      [
        badge.constraint(.width, equalToConstant: 40), badge.constraint(.height, equalToConstant: 20),
        badge.constraint(.centerX, equalTo: content), badge.constraint(.centerY, equalTo: content),
      ])
    #expect(root.layoutIfNeeded().isEmpty)
    #expect(sidebar.frame == Rect(x: 0, y: 0, width: 100, height: 300))
    #expect(content.frame == Rect(x: 110, y: 20, width: 290, height: 280))
    #expect(badge.frame == Rect(x: 125, y: 130, width: 40, height: 20))
    #expect(root.frame == Rect(x: 0, y: 0, width: 400, height: 300))
  }

  @Test func childViewPinnedToItsContainerFollowsTheWindow_views() async throws {
    let log = HookLog()
    let p = RecordingController("P", log: log)
    let c = RecordingController("C", log: log)
    let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    try await window.setRootViewController(p)
    try await p.addChild(c)
    let container = await p.view
    let childView = await c.view
    try await container.addSubview(childView)
    await c.didMove(toParent: p)
    container.addConstraints(
      childView.constraints(pinningEdgesTo: container, insets: EdgeInsets(top: 44, left: 0, bottom: 49, right: 0)))
    container.layoutIfNeeded()
    #expect(container.frame == Rect(x: 0, y: 0, width: 320, height: 480))
    #expect(childView.frame == Rect(x: 0, y: 44, width: 320, height: 387))
    #expect(childView.window === window)
  }
}
