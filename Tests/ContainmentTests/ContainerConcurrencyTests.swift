import ContainmentTestKit
import Testing

@testable import Containment

/// Checks one controller's hook sequence against the appearance cycle of
/// §3 (reversals allowed, A3).
///
/// Returns the first illegal step, or nil.
func appearanceViolation(of name: String, in log: [String], from start: AppearanceState = .disappeared) -> String? {
  var state = start
  for entry in log where entry.hasPrefix("\(name).") {
    let hook = entry.dropFirst(name.count + 1)
    switch (state, hook) {
    case (.disappeared, "viewWillAppear"), (.disappearing, "viewWillAppear"): state = .appearing
    case (.appearing, "viewIsAppearing"): break
    case (.appearing, "viewDidAppear"): state = .appeared
    case (.appeared, "viewWillDisappear"), (.appearing, "viewWillDisappear"): state = .disappearing
    case (.disappearing, "viewDidDisappear"): state = .disappeared
    case (_, "viewDidLoad"): break
    case (_, _) where hook.hasPrefix("willMove(") || hook.hasPrefix("didMove("): break
    default: return "\(entry) while \(state)"
    }
  }
  return state == .appearing || state == .disappearing ? "\(name) ends \(state)" : nil
}

/// What a request ended with, for expectations: its value, or the error it threw.
private func outcome<Value: Sendable>(_ request: () async throws -> Value) async -> String {
  do { return "\(try await request())" } catch { return "error: \(error)" }
}

/// R1, R4, N6 under load: stack and tab requests from many tasks at once.
@Suite(.timeLimit(.minutes(1)))
struct ContainerConcurrencyTests {
  @Test func concurrentStackRequestsLinearizeAndStayBalanced_R4_N6() async throws {
    let f = Fixture()
    let root = f.controller("R")
    let window = Window()
    let nav = try await f.onScreenNavigation([root], in: window)
    let pages = (0..<16).map { f.controller("C\($0)") }
    // Each task pops only after its own push, so whatever the interleaving the
    // stack holds at least one page above the root when a pop runs: every
    // request succeeds.
    let rounds = await withTaskGroup(of: (page: String, pushed: String, popped: String).self) { group in
      for page in pages {
        group.addTask {
          let pushed = await outcome { try await nav.push(page, animated: false).value }
          let popped = await outcome { try await nav.pop(animated: false).value.node.name }
          return (page.node.name, pushed, popped)
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let log = f.log.take()
    #expect(rounds.count == pages.count)
    #expect(rounds.filter { $0.pushed != "completed" }.isEmpty)
    // Every pop returned a page (no error), and each page was popped once.
    #expect(rounds.map(\.popped).sorted() == pages.map(\.node.name).sorted())
    // The log is the requests run one at a time (R1, R4): replaying the
    // stack changes in the order the log shows gives exactly this log, and
    // each pop takes the top of the stack at its turn.
    var stack = ["R"]
    var replayed: [String] = []
    for entry in log where entry.hasSuffix(".willMove(Nav)") || entry.hasSuffix(".willMove(nil)") {
      let name = String(entry.prefix { $0 != "." })
      guard let oldTop = stack.last else { break }
      if entry.hasSuffix("(Nav)") {
        stack.append(name)
        replayed += [
          "\(name).willMove(Nav)", "\(name).viewDidLoad", "\(oldTop).viewWillDisappear", "\(name).viewWillAppear",
          "\(name).viewIsAppearing", "\(oldTop).viewDidDisappear", "\(name).viewDidAppear", "\(name).didMove(Nav)",
        ]
      } else {
        #expect(oldTop == name, "\(name) popped while \(oldTop) was on top")
        stack.removeLast()
        guard let revealed = stack.last else { break }
        replayed += [
          "\(name).willMove(nil)", "\(name).viewWillDisappear", "\(revealed).viewWillAppear",
          "\(revealed).viewIsAppearing", "\(name).viewDidDisappear", "\(revealed).viewDidAppear",
          "\(name).didMove(nil)",
        ]
      }
    }
    #expect(log == replayed)
    #expect(stack == ["R"])
    // A task's pop runs after its own push.
    for round in rounds {
      let pushedAt = log.firstIndex(of: "\(round.page).willMove(Nav)")
      let poppedAt = log.firstIndex(of: "\(round.popped).willMove(nil)")
      #expect(pushedAt != nil && poppedAt != nil && pushedAt! < poppedAt!, "\(round)")
    }
    #expect(names(nav.viewControllers) == ["R"])
    #expect(nav.checkInvariants().isEmpty)
    #expect(root.node.appearanceState == .appeared)
    for page in pages {
      #expect(page.parent == nil)
      #expect(page.node.appearanceState == .disappeared)
    }
    withExtendedLifetime(window) {}
  }

  @Test func tabSwitchesFromManyTasksStayBalanced_R4() async throws {
    let f = Fixture()
    let tabs = TabBarController(name: "Tabs")
    let children = (0..<4).map { f.controller("T\($0)") }
    try await tabs.setViewControllers(children)
    let window = Window()
    try await window.setRootViewController(tabs)
    _ = f.log.take()
    // Every index is in range: every request succeeds.
    let results = await withTaskGroup(of: String.self) { group in
      for index in 0..<32 {
        group.addTask { await outcome { try await tabs.setSelectedIndex(index % children.count).value } }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results == Array(repeating: "()", count: 32))
    // The log is a sequence of whole switches (R1, B2), each from the tab the
    // previous one selected; selecting the selected tab logs nothing. The last
    // switch's tab is the one selected now.
    let log = f.log.take()
    var selected = "T0"
    var loaded: Set<String> = ["T0"]
    var replayed: [String] = []
    for entry in log where entry.hasSuffix(".viewWillAppear") {
      let name = String(entry.prefix { $0 != "." })
      #expect(name != selected, "a switch to the selected tab \(name)")
      if loaded.insert(name).inserted { replayed.append("\(name).viewDidLoad") }
      replayed += [
        "\(selected).viewWillDisappear", "\(name).viewWillAppear", "\(name).viewIsAppearing",
        "\(selected).viewDidDisappear", "\(name).viewDidAppear",
      ]
      selected = name
    }
    #expect(log == replayed)
    #expect(!replayed.isEmpty)  // tabs 1, 2 and 3 were each requested at least once
    #expect(tabs.checkInvariants().isEmpty)
    #expect(tabs.selectedViewController.map { $0.node.name } == selected)
    for child in children {
      #expect(child.node.appearanceState == (child.node.name == selected ? .appeared : .disappeared))
    }
    withExtendedLifetime(window) {}
  }

  /// A window toggling its root while many tasks push and pop: transactions on
  /// the window and on the navigation controller (its descendant) never
  /// overlap (hierarchical exclusion), so every controller's hook sequence is
  /// well-formed and matches a sequential order (R4).
  @Test func stackRequestsWhileTheWindowTogglesTheRoot_R4() async throws {
    let f = Fixture()
    let root = f.controller("R")
    let window = Window()
    let nav = try await f.onScreenNavigation([root], in: window)
    let pages = (0..<16).map { f.controller("C\($0)") }
    // Each task pops only after its own push, and the window only ever takes
    // the root it gave up: every request succeeds.
    let results = await withTaskGroup(of: [String].self) { group in
      for page in pages {
        group.addTask {
          let pushed = await outcome { try await nav.push(page, animated: false).value }
          let popped = await outcome { try await nav.pop(animated: false).value.node.name }
          return [pushed, popped.hasPrefix("C") ? "popped" : popped]
        }
      }
      group.addTask {
        var results: [String] = []
        for _ in 0..<8 {
          results.append(await outcome { try await window.setRootViewController(nil).value })
          results.append(await outcome { try await window.setRootViewController(nav).value })
        }
        return results
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(
      results.sorted() == Array(repeating: "()", count: 16) + Array(repeating: "completed", count: 16)
        + Array(repeating: "popped", count: 16))
    let log = f.log.take()
    #expect(names(nav.viewControllers) == ["R"])
    #expect(nav.checkInvariants().isEmpty)
    for page in pages { #expect(page.node.appearanceState == .disappeared) }
    #expect(appearanceViolation(of: "R", in: log, from: .appeared) == nil)
    for page in pages { #expect(appearanceViolation(of: page.node.name, in: log) == nil) }
  }
}
