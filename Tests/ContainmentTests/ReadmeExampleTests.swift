// swift-format-ignore-file
// (The code below is the README's, verbatim, in the README's layout.)
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

  /// The UIKit three-step add, as one transaction: no other request on
  /// this container runs between the steps.
  nonisolated func show(_ child: any ViewController) async throws {
    try await withTransaction { _ in
      try await self.addChild(child)            // calls child.willMove(toParent: self)
      let childView = await child.view          // loadView + viewDidLoad, once
      childView.frame = await self.view.bounds
      try await self.view.addSubview(childView) // appearance hooks if on screen
      await child.didMove(toParent: self)
    }
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

  /// The README's events sample, with `print` writing to a list: the loop
  /// ends once the tree is torn down (E6).
  @Test func theEventsSampleEndsWhenTheTreeIsTornDown_E5_E6() async throws {
    let window = Window()
    let shell = Shell()
    try await window.setRootViewController(shell)
    let printed = HookLog()
    func print(_ path: String, _ kind: String, _ transaction: Any) { printed.append("\(path) \(kind)") }

    let events = shell.treeEvents()                  // subscribed now; first a snapshot of the state
    let timeline = Task {
      for await event in events {
        print(event.path, event.kind.name, event.transaction as Any)
      }                                              // ends once the tree is torn down
    }
    try await shell.show(Profile())
    try await window.tearDown()                      // off screen, viewDidTearDown, streams end
    await timeline.value

    #expect(printed.all == [
      "Shell subscribed", "Shell childAdded", "Shell/Profile willMove", "Shell/Profile viewDidLoad",
      "Shell/Profile viewWillAppear", "Shell/Profile viewIsAppearing", "Shell/Profile viewDidAppear",
      "Shell/Profile didMove", "Shell viewWillDisappear", "Shell/Profile viewWillDisappear", "Shell viewDidDisappear",
      "Shell/Profile viewDidDisappear", "Shell/Profile viewDidTearDown", "Shell viewDidTearDown", "Shell terminated",
    ])
  }
}

// The README's "Built-in containers" snippet, verbatim between the markers,
// so that it keeps compiling and does what it says.
private actor Screen: ViewController {
  nonisolated let node: ControllerNode
  init(_ name: String) { node = ControllerNode(name: name) }
}

private final class TabDelegate: TabBarControllerDelegate {}

private struct ContainersSnippetResult {
  let nav: NavigationController
  let tabs: TabBarController
  let split: SplitViewController
  let popped: any ViewController
  let outcome: TransitionOutcome
}

private func readmeContainersSnippet(window: Window, tabDelegate: TabDelegate) async throws -> ContainersSnippetResult {
  let (inbox, message) = (Screen("inbox"), Screen("message"))
  let (feed, profile) = (Screen("feed"), Screen("profile"))
  let (mailboxes, detail) = (Screen("mailboxes"), Screen("detail"))
  // README begin
  // Navigation stack (N1–N8)
  let nav = NavigationController()
  try await window.setRootViewController(nav)
  try await nav.setViewControllers([inbox], animated: false)
  try await nav.push(message, animated: true)        // animation time comes from the window's clock
  let popped = try await nav.pop(animated: true).value
  try await nav.push(message, animated: false)
  let outcome = try await nav.interactivePop { gesture in  // swipe back, as one structured call
    gesture.update(0.6)
    return .finish                                      // or .cancel
  }.value

  // Tabs (B1–B3)
  let tabs = TabBarController()
  tabs.delegate = tabDelegate                           // held weakly; asked only by select(_:)
  try await tabs.setViewControllers([feed, profile], selectedIndex: 0)
  try await tabs.select(1)                              // the user tapped a tab
  try await tabs.setSelectedIndex(0)                    // code: the delegate is not asked

  // Split (S1–S2)
  let split = SplitViewController()
  try await split.setViewControllers(primary: mailboxes, secondary: detail)
  try await window.setRootViewController(split)         // regular: side by side
  try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact))  // collapses
  try await split.show(.secondary)
  // README end
  return ContainersSnippetResult(nav: nav, tabs: tabs, split: split, popped: popped, outcome: outcome)
}

extension ReadmeExampleTests {
  /// The containers snippet runs as written; the window's manual clock is
  /// advanced whenever an animation waits on it (no real time).
  @Test func containersSnippetRunsAsWritten() async throws {
    let clock = ManualClock()
    let window = Window(environment: ContainmentEnvironment(clock: clock))
    let tabDelegate = TabDelegate()
    let result = try await withThrowingTaskGroup(of: ContainersSnippetResult?.self) { group in
      group.addTask { try await readmeContainersSnippet(window: window, tabDelegate: tabDelegate) }
      group.addTask {
        while !Task.isCancelled {
          await clock.sleepers(atLeast: 1)
          if Task.isCancelled { break }
          clock.advance(by: .seconds(1))
        }
        return nil
      }
      defer { group.cancelAll() }
      while let next = try await group.next() {
        if let next { return next }
      }
      throw CancellationError()
    }
    #expect(result.popped.node.name == "message")
    #expect(result.outcome == .completed)
    #expect(result.nav.children.map(\.node.name) == ["inbox"])
    #expect(result.tabs.selectedIndex == 0)
    #expect(result.tabs.viewControllers.map(\.node.name) == ["feed", "profile"])
    #expect(window.rootViewController === result.split)
    #expect(result.split.isCollapsed)
    #expect(result.split.shownColumn == .secondary)
    #expect(result.split.checkInvariants().isEmpty)
  }
}
