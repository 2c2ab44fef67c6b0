import Testing
@testable import Containment
import ContainmentTestKit

/// Checks one controller's hook sequence against the appearance cycle of
/// SPEC §3 (reversals allowed, A3). Returns the first illegal step, or nil.
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

/// SPEC R1, R4, N6 under load: stack and tab requests from many tasks at once.
@Suite(.timeLimit(.minutes(1)))
struct ContainerConcurrencyTests {
  @Test func concurrentStackRequestsLinearizeAndStayBalanced_R4_N6() async throws {
    let f = Fixture()
    let root = f.controller("R")
    let window = Window()
    let nav = try await f.onScreenNavigation([root], in: window)
    let pages = (0..<16).map { f.controller("C\($0)") }
    await withTaskGroup(of: Void.self) { group in
      for page in pages {
        group.addTask {
          _ = try? await nav.push(page, animated: false)
          _ = try? await nav.pop(animated: false)
        }
      }
    }
    let log = f.log.take()
    #expect(names(nav.viewControllers) == ["R"])
    #expect(nav.checkInvariants().isEmpty)
    #expect(root.node.appearanceState == .appeared)
    for page in pages {
      #expect(page.parent == nil)
      #expect(page.node.appearanceState == .disappeared)
      #expect(appearanceViolation(of: page.node.name, in: log) == nil)
    }
    #expect(appearanceViolation(of: "R", in: log, from: .appeared) == nil)
    #expect(window.rootViewController === nav)
  }

  @Test func tabSwitchesFromManyTasksStayBalanced_R4() async throws {
    let f = Fixture()
    let tabs = TabBarController(name: "Tabs")
    let children = (0..<4).map { f.controller("T\($0)") }
    try await tabs.setViewControllers(children)
    let window = Window()
    try await window.setRootViewController(tabs)
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<32 {
        group.addTask { _ = try? await tabs.setSelectedIndex(index % children.count) }
      }
    }
    let log = f.log.take()
    #expect(tabs.checkInvariants().isEmpty)
    let selected = try #require(tabs.selectedViewController)
    for child in children {
      #expect(child.node.appearanceState == (child === selected ? .appeared : .disappeared))
      #expect(appearanceViolation(of: child.node.name, in: log) == nil)
    }
    #expect(window.rootViewController === tabs)
  }

  /// A window toggling its root while many tasks push and pop: transactions on
  /// the window and on the navigation controller (its descendant) never
  /// overlap (hierarchical exclusion), so every controller's hook sequence is
  /// well-formed and matches a sequential order (SPEC R4).
  @Test func stackRequestsWhileTheWindowTogglesTheRoot_R4() async throws {
    let f = Fixture()
    let root = f.controller("R")
    let window = Window()
    let nav = try await f.onScreenNavigation([root], in: window)
    let pages = (0..<16).map { f.controller("C\($0)") }
    await withTaskGroup(of: Void.self) { group in
      for page in pages {
        group.addTask {
          _ = try? await nav.push(page, animated: false)
          _ = try? await nav.pop(animated: false)
        }
      }
      group.addTask {
        for _ in 0..<8 {
          _ = try? await window.setRootViewController(nil)
          _ = try? await window.setRootViewController(nav)
        }
      }
    }
    let log = f.log.take()
    #expect(names(nav.viewControllers) == ["R"])
    #expect(nav.checkInvariants().isEmpty)
    for page in pages { #expect(page.node.appearanceState == .disappeared) }
    #expect(appearanceViolation(of: "R", in: log, from: .appeared) == nil)
    for page in pages { #expect(appearanceViolation(of: page.node.name, in: log) == nil) }
  }
}
