import Containment

/// The scripted scenario: every kind of event the runtime has, on one tree.
struct Scenario {
  /// The tree's clock: every event's timestamp is the time since it was made.
  let environment: ContainmentEnvironment
  let window: Window
  let root: Shell

  init(clock: any Clock<Duration>) {
    environment = ContainmentEnvironment(clock: clock)
    window = Window(environment: environment)
    root = Shell("App")
    // The root's own environment too: the window's tear-down detaches the
    // root before its last events, and a detached root without one stamps
    // them on the default environment, whose clock started later (the
    // timeline went back a millisecond at `viewDidTearDown`).
    root.environment = environment
  }

  /// Runs the scenario, then tears the tree down (which ends the streams).
  func run() async throws {
    try await window.setRootViewController(root)

    // add, then a second child that is not shown yet
    let feed = Screen("Feed")
    let profile = Screen("Profile")
    try await root.show(feed)
    try await root.addChild(profile)
    await profile.didMove(toParent: root)

    // an animated transition between the two children
    try await root.transition(from: feed, to: profile, duration: .milliseconds(120), options: .crossDissolve)

    // remove
    try await root.dismiss(feed)

    // a manual-forwarding container swapping panes as one coalesced batch
    let panes = Panes("Panes")
    let left = Screen("Left")
    let right = Screen("Right")
    try await root.addChild(panes)
    try await root.view.addSubview(await panes.view)
    await panes.didMove(toParent: root)
    try await panes.install(left)
    try await panes.install(right)
    var showLeft = AppearanceBatch()
    showLeft.appear(left)
    try await panes.commit(showLeft, duration: .milliseconds(80))
    var swap = AppearanceBatch()
    swap.disappear(left)
    swap.appear(right)
    swap.appear(left)  // net: left stays; only right appears
    swap.disappear(left)  // net: left disappears
    try await panes.commit(swap, duration: .milliseconds(80))

    // an unbalanced call: reported, ignored
    await left.endAppearanceTransition()

    // a navigation stack: push, pop, and an interactive pop that is cancelled
    let nav = NavigationController(name: "Nav", transitionDuration: .milliseconds(60))
    let inbox = Screen("Inbox")
    let message = Screen("Message")
    try await root.show(nav)
    try await nav.setViewControllers([inbox], animated: false)
    try await nav.push(message, animated: true)
    _ = try await nav.pop(animated: true).value
    try await nav.push(message, animated: false)
    _ = try await nav.interactivePop { gesture in
      gesture.update(0.3)  // the finger lifts a third of the way across
      return .cancel
    }.value
    try await root.dismiss(nav)

    // tabs: the user taps the second tab
    let tabs = TabBarController(name: "Tabs")
    let home = Screen("Home")
    let settings = Screen("Settings")
    try await root.show(tabs)
    try await tabs.setViewControllers([home, settings], selectedIndex: 0)
    _ = try await tabs.select(1).value

    // presentation: a sheet over the selected tab, then a full-screen flow
    // over the whole app
    let sheet = Screen("Sheet")
    let flow = Screen("Flow")
    try await settings.present(sheet, style: .pageSheet, animated: false)
    try await sheet.dismiss(animated: false)
    try await root.present(flow, style: .fullScreen, animated: true)
    try await flow.dismiss(animated: true)

    try await window.tearDown()
  }
}
