// The two-tab custom container (the contract's reference example), written
// as a user of the library writes it: public API only. A container holds two
// children, keeps one of them active, and two "buttons" switch between them,
// instantly (the UIKit three-step remove and add) or animated
// (`transition(from:to:)`). Each tap is one transaction scope
// (`withTransaction`): taps from many tasks at once never interleave.
//
//   swift run two-tab                    prints the hook log of a short script
//   swift run two-tab --concurrent 1000  fires 1000 taps from 1000 tasks at once and checks the result
//   swift run -c release two-tab --check 20000
//                                        the test kit's ContainerChecker on this container: 20000 random
//                                        taps from up to 4 tasks at once, every burst checked; prints the
//                                        report and the checker's throughput (operations per second)

import CommandLineOptions
import Containment
import ContainmentTestKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A page that prints every lifecycle hook it receives (or, quietly, only
/// counts its appearance balance).
actor Page: ViewController {
  nonisolated let node: ControllerNode
  nonisolated let verbose: Bool
  /// +1 per `viewDidAppear`, -1 per `viewDidDisappear`; will-hooks must alternate.
  private(set) var problems: [String] = []
  private var visible = false
  private var pending: String?

  init(_ name: String, verbose: Bool) {
    node = ControllerNode(name: name)
    self.verbose = verbose
  }

  private func log(_ hook: String) { if verbose { print("  \(node.name).\(hook)") } }
  private static func name(_ parent: (any ViewController)?) -> String { parent?.node.name ?? "nil" }

  private func will(_ appearing: Bool) {
    if pending != nil || visible == appearing {
      problems.append("\(appearing ? "willAppear" : "willDisappear") out of turn")
    }
    pending = appearing ? "appear" : "disappear"
  }

  private func did(_ appearing: Bool) {
    if pending != (appearing ? "appear" : "disappear") {
      problems.append("\(appearing ? "didAppear" : "didDisappear") out of turn")
    }
    pending = nil
    visible = appearing
  }

  /// Whether the page's appearance hooks are balanced and it is `visible`.
  func isBalanced(visible expected: Bool) -> Bool { problems.isEmpty && pending == nil && visible == expected }

  func viewDidLoad() async { log("viewDidLoad") }
  func viewWillAppear(_ animated: Bool) async {
    will(true)
    log("viewWillAppear(animated: \(animated))")
  }
  func viewIsAppearing(_ animated: Bool) async { log("viewIsAppearing") }
  func viewDidAppear(_ animated: Bool) async {
    did(true)
    log("viewDidAppear")
  }
  func viewWillDisappear(_ animated: Bool) async {
    will(false)
    log("viewWillDisappear(animated: \(animated))")
  }
  func viewDidDisappear(_ animated: Bool) async {
    did(false)
    log("viewDidDisappear")
  }
  func viewWillMove(toParent parent: (any ViewController)?) async { log("willMove(toParent: \(Self.name(parent)))") }
  func viewDidMove(toParent parent: (any ViewController)?) async { log("didMove(toParent: \(Self.name(parent)))") }
}

/// The container: two children, one active, two buttons.
actor TwoTabContainer: ViewController {
  enum Button: CustomStringConvertible {
    case first, second
    var description: String { self == .first ? "first" : "second" }
  }

  /// The strip at the bottom that holds the two buttons.
  static let buttonBarHeight = 50.0

  nonisolated let node = ControllerNode(name: "TwoTab")
  nonisolated let first: any ViewController
  nonisolated let second: any ViewController
  nonisolated let animationDuration: Duration
  private(set) var active: (any ViewController)?

  init(first: any ViewController, second: any ViewController, animationDuration: Duration = .milliseconds(200)) {
    self.first = first
    self.second = second
    self.animationDuration = animationDuration
  }

  /// The first child becomes active when the container's view loads.
  func viewDidLoad() async {
    if (first as? Page)?.verbose == true { print("  TwoTab.viewDidLoad") }
    do {
      try await tap(.first)
    } catch {
      print("  could not show the first child: \(error)")
    }
  }

  private func setActive(_ child: any ViewController) { active = child }

  /// A button tap: one transaction on this container's queue, so a tap that
  /// arrives while another runs waits for it, whichever task it comes from.
  ///
  /// Returns the tap's transaction id (every event it causes carries it).
  @discardableResult
  nonisolated func tap(_ button: Button, animated: Bool = false) async throws -> TransactionID {
    let target = button == .first ? first : second
    return try await withTransaction { scope in
      if animated {
        try await self.transition(to: target)
      } else {
        try await self.show(target)
      }
      return scope.id
    }.value
  }

  /// The area children fill: the container's bounds above the button bar.
  private nonisolated func contentArea() async -> Rect {
    let bounds = await view.bounds
    return Rect(x: 0, y: 0, width: bounds.width, height: max(0, bounds.height - Self.buttonBarHeight))
  }

  /// Swaps the active child at once: remove the old one the UIKit way
  /// (`willMove(nil)`, remove its root view, `removeFromParent`), then add the
  /// new one (`addChild`, size its root view to the content area, add it,
  /// `didMove(self)`).
  ///
  /// Runs inside the tap's scope.
  private nonisolated func show(_ child: any ViewController) async throws {
    let old = await active
    guard child !== old else { return }
    if let old {
      await old.willMove(toParent: nil)
      try await old.view.removeFromSuperview()
      try await old.removeFromParent()
    }
    try await addChild(child)
    let childView = await child.view
    childView.frame = await contentArea()
    try await view.addSubview(childView)
    await child.didMove(toParent: self)
    await setActive(child)
  }

  /// The animated variant: the runtime's `transition(from:to:)` swaps the two
  /// root views while the old child disappears and the new one appears.
  private nonisolated func transition(to child: any ViewController) async throws {
    guard let old = await active, old !== child else { return try await show(child) }
    try await addChild(child)
    await old.willMove(toParent: nil)
    (await child.view).frame = await contentArea()
    try await transition(from: old, to: child, duration: animationDuration, options: .crossDissolve)
    try await old.removeFromParent()
    await child.didMove(toParent: self)
    await setActive(child)
  }
}

/// The script: the app's start-up code, then a few taps, one after the other.
func runScript() async throws {
  let first = Page("first", verbose: true)
  let second = Page("second", verbose: true)
  let container = TwoTabContainer(first: first, second: second)
  let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))

  print("start-up:")
  try await window.setRootViewController(container)
  let script: [(TwoTabContainer.Button, animated: Bool)] = [
    (.second, false), (.first, true), (.first, false), (.second, true),
  ]
  for (button, animated) in script {
    print("tap \(button)\(animated ? " (animated)" : ""):")
    try await container.tap(button, animated: animated)
  }
  if let active = await container.active, let frame = active.viewIfLoaded?.frame {
    print("active: \(active.node.name), frame \(frame)")
  }
  let problems = container.checkInvariants()
  print(problems.isEmpty ? "invariants hold" : "invariant violations: \(problems)")
  print("tear-down:")
  try await window.tearDown()
}

/// `count` taps, instant and animated mixed, fired from `count` tasks at once
/// on a short real clock; then the checks.
///
/// Returns the number of violations.
func runConcurrent(_ count: Int) async throws -> Int {
  let first = Page("first", verbose: false)
  let second = Page("second", verbose: false)
  let container = TwoTabContainer(first: first, second: second, animationDuration: .microseconds(200))
  let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
  try await window.setRootViewController(container)

  // Every event of the tree, in the order the runtime stamped them.
  let events = container.treeEvents(policy: .disconnectOnLag(count * 40 + 1_000))
  let collector = Task {
    var collected: [LifecycleEvent] = []
    for await event in events {
      if case .terminated = event.kind, event.controller == container.node.id { break }
      collected.append(event)
    }
    return collected
  }

  let taps = await withTaskGroup(of: Result<TransactionID, any Error>.self) { group in
    for index in 0..<count {
      group.addTask {
        let button: TwoTabContainer.Button = index.isMultiple(of: 2) ? .second : .first
        do {
          return .success(try await container.tap(button, animated: index % 3 == 0))
        } catch {
          return .failure(error)
        }
      }
    }
    var results: [Result<TransactionID, any Error>] = []
    for await result in group { results.append(result) }
    return results
  }

  var violations: [String] = []
  var ids: Set<TransactionID> = []
  for case .failure(let error) in taps { violations.append("a tap failed: \(error)") }
  for case .success(let id) in taps { ids.insert(id) }

  let active = await container.active
  let children = container.children
  if children.count != 1 || children.first !== active {
    violations.append("children \(children.map(\.node.name)), active \(active?.node.name ?? "none")")
  }
  if let active, active.viewIfLoaded?.window !== window {
    violations.append("the active child is not installed on screen")
  }
  for page in [first, second] where await !page.isBalanced(visible: page === active) {
    violations.append("\(page.node.name): appearance hooks unbalanced: \(await page.problems.prefix(3))")
  }
  violations += container.checkInvariants().map { "invariant: \($0)" }

  try await window.tearDown()
  let log = await collector.value
  // Each tap's events carry its id and are contiguous: no other request's
  // events fall between a tap's first and last event.
  var closed: Set<TransactionID> = []
  var current: TransactionID?
  for event in log {
    switch event.kind {
    case .subscribed, .terminated, .eventsLost, .lagged: continue
    default: break
    }
    guard let id = event.transaction else {
      violations.append("an event without a transaction: \(event)")
      continue
    }
    guard ids.contains(id) else { continue }
    if id != current {
      if let current { closed.insert(current) }
      if closed.contains(id) { violations.append("the events of tap \(id) are interleaved with another request's") }
      current = id
    }
  }
  if log.contains(where: { if case .lagged = $0.kind { true } else { false } }) {
    violations.append("the event log lagged")
  }
  for violation in violations.prefix(20) { print("  violation: \(violation)") }
  return violations.count
}

/// The container as the test kit's checker sees it: a fresh window showing a
/// fresh container (its first page shown by its `viewDidLoad`), and the two
/// buttons as operations.
struct TwoTabFixture: CheckableContainer {
  let window: Window
  let container: TwoTabContainer
  let first: Page
  let second: Page
  var controllers: [any ViewController] { [container, first, second] }

  init(environment: ContainmentEnvironment) async throws {
    first = Page("first", verbose: false)
    second = Page("second", verbose: false)
    container = TwoTabContainer(first: first, second: second)
    window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844), environment: environment)
    try await window.setRootViewController(container)
  }

  static let checker = ContainerChecker<TwoTabFixture>(
    "TwoTab",
    operations: [
      ContainerOperation("tap first") { fixture, animated in try await fixture.container.tap(.first, animated: animated)
      },
      ContainerOperation("tap second") { fixture, animated in
        try await fixture.container.tap(.second, animated: animated)
      },
    ]
  ) { environment in try await TwoTabFixture(environment: environment) }
}

/// Runs the checker for `count` operations; returns the number of findings.
func runChecker(_ count: Int) async -> Int {
  let report = await TwoTabFixture.checker.run(CheckConfiguration(length: .operations(count)))
  print(report)
  print(
    "two-tab: checked \(report.operations) operations in \(report.elapsed), \(Int(report.operationsPerSecond)) operations/s"
  )
  return report.findings.count
}

/// The command line: the script, `--concurrent N` taps at once, or
/// `--check N` operations under the test kit's checker.
struct TwoTabOptions: ToolOptions {
  static let toolName = "two-tab"
  static let usage = """
    usage: two-tab [--concurrent N | --check N]
      (no flag)          run a short script of taps and print every hook
      --concurrent N     fire N taps from N tasks at once, then check the result
      --check N          run the test kit's ContainerChecker for N operations and print
                         its report and throughput
      --help, -h         this text
    Exit status: 0; 1 if a check failed; 64 on bad usage (nothing runs).
    """

  /// How many taps to fire at once; nil: the script.
  var concurrent: Int?
  /// How many operations to check; nil: no check.
  var check: Int?

  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
    switch flag {
    case "--concurrent": concurrent = try arguments.count(of: flag, atLeast: 1)
    case "--check": check = try arguments.count(of: flag, atLeast: 1)
    default: throw .unknownFlag(flag)
    }
  }
}

let options = TwoTabOptions.parseOrExit()
if let count = options.check {
  if await runChecker(count) > 0 { exit(ExitStatus.failure.code) }
} else if let count = options.concurrent {
  let violations = try await runConcurrent(count)
  print("two-tab: \(count) concurrent taps, \(violations) violations")
  if violations > 0 { exit(ExitStatus.failure.code) }
} else {
  try await runScript()
}
