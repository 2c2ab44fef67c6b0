import Testing
import Containment
import ContainmentTestKit

// The README's quick-start code, verbatim, so that it keeps compiling.
private actor Profile: ViewController {
  nonisolated let node = ControllerNode(name: "Profile")
  func viewDidLoad() async { /* build subviews */ }
  func viewWillAppear(_ animated: Bool) async { /* refresh */ }
}

private actor Shell: ViewController {
  nonisolated let node = ControllerNode(name: "Shell")

  /// The UIKit three-step add.
  func show(_ child: any ViewController) async throws {
    try await addChild(child)                   // calls child.willMove(toParent: self)
    let childView = await child.view            // loadView + viewDidLoad, once
    childView.frame = await view.bounds
    try await view.addSubview(childView)        // appearance hooks if on screen
    await child.didMove(toParent: self)
  }
}

@Suite(.timeLimit(.minutes(1)))
struct ReadmeExampleTests {
  @Test func quickStartShowsAChildOnScreen_C3() async throws {
    let window = Window()
    let shell = Shell()
    try await window.setRootViewController(shell)
    let profile = Profile()
    var events = profile.events().makeAsyncIterator()
    try await shell.show(profile)
    var kinds: [String] = []
    for _ in 0..<7 { kinds.append(await events.next()?.kind.name ?? "end") }
    #expect(kinds == [
      "subscribed", "willMove", "viewDidLoad", "viewWillAppear", "viewIsAppearing", "viewDidAppear", "didMove",
    ])
    #expect(profile.parent === shell)
    #expect(window.rootViewController === shell)
  }
}
