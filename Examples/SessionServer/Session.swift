import Containment

/// One session of the server: its own window and tree, on the server's
/// supervised environment.
///
///     Window ─ SessionRoot ─┬─ NavigationController ─ Home (+ Inbox, Message, a Compose sheet)
///                           └─ Panel (shown by a request)
///
/// Every controller is an actor of its own. The window, the root and the
/// navigation controller each serialize the requests made to them in a FIFO
/// queue of transactions, so the session's two clients never interleave
/// inside one change.
struct Session: Sendable {
  static let navigationFrame = Rect(x: 0, y: 0, width: 704, height: 768)
  static let panelFrame = Rect(x: 704, y: 0, width: 320, height: 768)
  /// Requests per session: five from the navigation client, three from the chrome client.
  static let requestCount = 8

  let name: String
  let window: Window
  let root: SessionRoot
  let navigation: NavigationController
  let panel: Panel

  /// Builds a session's tree off screen (no appearance hooks yet); its panel
  /// loads from `backend`.
  init(_ name: String, environment: ContainmentEnvironment, backend: Backend) async throws {
    self.name = name
    window = Window(environment: environment)
    root = SessionRoot(name: name)
    navigation = NavigationController()
    panel = Panel(backend: backend)
    try await navigation.setViewControllers([Screen("Home")], animated: false)
    try await root.show(navigation, in: Self.navigationFrame)
  }

  /// Runs the tree as a service until `shutdown` is requested (shows it,
  /// waits, then tears it down in order: stop hooks children before parents),
  /// while reading the tree's event stream for what the supervision did.
  func run(until shutdown: GracefulShutdown) async throws -> Supervision {
    let events = root.treeEvents()  // subscribed before the tree is shown: nothing is missed
    async let supervision = Supervision.read(events, until: root.node.id)
    try await window.run(root, until: shutdown)
    return await supervision
  }

  /// Serves the session's requests from two clients at once, as soon as the
  /// tree is on screen: the navigation client moves through the stack and
  /// presents a sheet; the chrome client shows the panel, then rotates the
  /// device (a trait change goes through the whole tree).
  func serve() async -> Served {
    do {
      try await root.waitUntil(.appeared)
    } catch {
      return Served(session: name, requests: 0, failures: ["never shown: \(error)"])
    }
    // No animations: nobody watches a server's screens.
    let inbox = Screen("Inbox")
    let message = Screen("Message")
    let compose = Screen("Compose")
    async let navigating = perform([
      { _ = try await navigation.push(inbox, animated: false) },
      { _ = try await navigation.push(message, animated: false) },
      { _ = try await message.present(compose, style: .pageSheet, animated: false) },
      { _ = try await message.dismiss(animated: false) },
      { _ = try await navigation.pop(animated: false) },
    ])
    async let chrome = perform([
      { try await root.show(panel, in: Self.panelFrame) },
      { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact)) },
      { try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .regular)) },
    ])
    let (first, second) = await (navigating, chrome)
    return Served(
      session: name, requests: first.requests + second.requests, failures: first.failures + second.failures)
  }

  /// Runs `requests` one after the other; stops at the first that fails.
  private func perform(_ requests: [@Sendable () async throws -> Void]) async -> Served {
    var served = Served(session: name, requests: 0, failures: [])
    for request in requests {
      do {
        try await request()
        served.requests += 1
      } catch {
        served.failures.append("\(error)")
        break
      }
    }
    return served
  }
}

/// How far a session's clients got.
struct Served: Sendable {
  var session: String
  var requests: Int
  var failures: [String]

  /// Every request of the session succeeded.
  var isComplete: Bool { failures.isEmpty && requests == Session.requestCount }
}

/// What one tree's event stream says about supervision: which hooks missed
/// their deadline and after how long, which faulted children were isolated,
/// which hooks were skipped, and the order of the stop hooks at shutdown.
struct Supervision: Sendable {
  /// "path.hook after N ms" for each `hookTimedOut` event: N is the time
  /// between the hook's own event and the timeout, on the tree's clock.
  var timedOut: [String] = []
  /// Path of the parent of each `childRemoved(_, reason: .faulted)` event.
  var isolatedFrom: [String] = []
  /// "name.hook" of each `hookSkipped` event.
  var skipped: [String] = []
  /// Names of the controllers in the order their `viewDidTearDown` ran.
  var stopOrder: [String] = []
  /// Events this reader fell too far behind to see (0 unless the machine is overloaded).
  var lost = 0

  /// Reads `events` until the tree's root, `root`, terminates.
  static func read(_ events: LifecycleEvents, until root: ControllerID) async -> Supervision {
    var supervision = Supervision()
    var lastHook: [ControllerID: Duration] = [:]
    for await event in events {
      switch event.kind {
      case .hookTimedOut(let hook, _):
        let waited = event.timestamp - (lastHook[event.controller] ?? event.timestamp)
        supervision.timedOut.append("\(event.path).\(hook) after \(Int((waited / .milliseconds(1)).rounded())) ms")
      case .childRemoved(_, let reason) where reason == .faulted: supervision.isolatedFrom.append(event.path)
      case .hookSkipped(let hook): supervision.skipped.append("\(event.name).\(hook)")
      case .viewDidTearDown: supervision.stopOrder.append(event.name)
      case .eventsLost(let count): supervision.lost += count
      case .terminated where event.controller == root: return supervision
      default: lastHook[event.controller] = event.timestamp
      }
    }
    return supervision
  }
}
