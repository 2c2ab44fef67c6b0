import Containment

/// The scripted scenario: every kind of event the runtime has, on one tree.
struct Scenario {
  let window: Window
  let root: Shell

  init(clock: any Clock<Duration>) {
    window = Window(environment: ContainmentEnvironment(clock: clock))
    root = Shell("App")
  }

  /// Runs the scenario, then tears the tree down (which ends the streams).
  func run() async throws {
    try await window.setRootViewController(root)

    // add, then a second child that is not shown yet
    let feed = Screen("Feed"), profile = Screen("Profile")
    try await root.show(feed)
    try await root.addChild(profile)
    await profile.didMove(toParent: root)

    // an animated transition between the two children
    try await root.transition(from: feed, to: profile, duration: .milliseconds(120))

    // remove
    try await root.dismiss(feed)

    // a manual-forwarding container swapping panes as one coalesced batch
    let panes = Panes("Panes"), left = Screen("Left"), right = Screen("Right")
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

    try await window.tearDown()
  }
}
