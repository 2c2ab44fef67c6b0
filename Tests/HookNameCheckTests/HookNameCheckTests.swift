import HookNameCheck
import Testing

/// The hook-name check: a controller that declares one of the runtime's verbs
/// (`willMove(toParent:)`, `didMove(toParent:)`) is reported at the name's
/// position; nothing else is.
struct HookNameCheckTests {
  private func findings(_ files: [(String, String)]) -> [String] {
    HookNameCheck.findings(in: files.map { HookNameCheck.File(path: $0.0, text: $0.1) })
      .map { "\($0.file):\($0.line):\($0.column) \($0.typeName).\($0.verb)" }
  }

  @Test func aControllerDeclaringAVerbIsReportedAtTheName() {
    let source = """
      import Containment

      actor Profile: ViewController {
        nonisolated let node = ControllerNode(name: "Profile")
        func willMove(toParent parent: (any ViewController)?) async {}
        func didMove(toParent parent: (any ViewController)?) {}
        func viewWillMove(toParent parent: (any ViewController)?) async {}
      }
      """
    #expect(
      findings([("Profile.swift", source)]) == [
        "Profile.swift:5:8 Profile.willMove", "Profile.swift:6:8 Profile.didMove",
      ])
  }

  @Test func theHooksAndOtherTypesAreNotReported() {
    let source = """
      actor Profile: ViewController {
        func viewWillMove(toParent parent: (any ViewController)?) async {}
        func viewDidMove(toParent parent: (any ViewController)?) async {}
        func willMove(to parent: (any ViewController)?) async {}
        func didMove() async {}
      }
      final class Reference {
        func willMove(toParent parent: Reference?) {}
      }
      actor Worker: Sendable {
        func didMove(toParent parent: Worker?) async {}
      }
      """
    #expect(findings([("A.swift", source)]) == [])
  }

  @Test func aConformanceInAnotherFileCounts() {
    let type = """
      actor Inbox {
        func didMove(toParent parent: (any ViewController)?) async {}
      }
      """
    let conformance = "extension Inbox: ViewController {}\n"
    let more = """
      extension Inbox {
        func willMove(toParent parent: (any ViewController)?) async {}
      }
      """
    #expect(
      findings([("Inbox.swift", type), ("Inbox+VC.swift", conformance), ("Inbox+More.swift", more)])
        == ["Inbox.swift:2:8 Inbox.didMove", "Inbox+More.swift:2:8 Inbox.willMove"])
  }

  @Test func aProtocolRefiningViewControllerAndItsConformersCount() {
    let source = """
      protocol Screen: Sendable, ViewController {}
      extension Screen {
        func didMove(toParent parent: (any ViewController)?) async {}
      }
      actor Home: Screen {
        func willMove(toParent parent: (any ViewController)?) async {}
      }
      """
    #expect(findings([("S.swift", source)]) == ["S.swift:3:8 Screen.didMove", "S.swift:6:8 Home.willMove"])
  }

  @Test func qualifiedGenericAndNestedDeclarationsAreFound() {
    let source = """
      enum Screens {
        @MainActor static func make() {}
        actor Box<Content: Sendable & Hashable>: Containment.ViewController where Content: Codable {
          nonisolated func willMove<P>(toParent parent: P?) async {}
        }
      }
      extension Screens.Box {
        public func didMove(toParent parent: (any ViewController)?) async {}
      }
      """
    #expect(findings([("N.swift", source)]) == ["N.swift:4:22 Box.willMove", "N.swift:8:15 Box.didMove"])
  }

  @Test func functionsInsideMembersAndNonControllerNestedTypesAreNotMembers() {
    let source = """
      actor Shell: ViewController {
        func viewDidLoad() async {
          func willMove(toParent parent: Int) {}
          let build = { func didMove(toParent parent: Int) {} }
        }
        struct Helper {
          func willMove(toParent parent: Int) {}
        }
        class func makeDefault() {}
      }
      """
    #expect(findings([("Shell.swift", source)]) == [])
  }

  @Test func commentsAndStringsAreNotCode() {
    let source = #"""
      actor Shell: ViewController {
        // func willMove(toParent parent: (any ViewController)?) async {}
        /* func didMove(toParent: nil) /* nested */ func willMove(toParent: nil) */
        let text = "func willMove(toParent parent: \(1 + 2))"
        let raw = #"func didMove(toParent parent: "quoted")"#
        let long = """
          func willMove(toParent parent: (any ViewController)?) {}
          """
        func didMove(toParent parent: (any ViewController)?) async {}
      }
      """#
    #expect(findings([("Shell.swift", source)]) == ["Shell.swift:9:8 Shell.didMove"])
  }

  @Test func aFindingReadsAsACompilerErrorNamingTheHook() {
    let finding = HookNameFinding(file: "/src/Profile.swift", line: 5, column: 8, typeName: "Profile", verb: "willMove")
    #expect(
      finding.description
        == "/src/Profile.swift:5:8: error: 'willMove(toParent:)' in 'Profile' is never called by the runtime: "
        + "in Containment 'willMove(toParent:)' is the verb a container calls, and the hook is "
        + "'viewWillMove(toParent:)'; rename it to 'viewWillMove(toParent:)' (as it is, a container's "
        + "'willMove(toParent:)' on 'Profile' could run this method instead of the verb)")
  }

  @Test func tokensSkipCommentsAndStringsButKeepInterpolatedCode() {
    let tokens = SourceTokenizer.tokens(of: "a /* b /* c */ d */ \"e \\(f) g\" #\"h\"# `i` // j\nk")
    #expect(tokens.map(\.text) == ["a", "f", "i", "k"])
    #expect(tokens.map(\.line) == [1, 1, 1, 2])
  }
}
