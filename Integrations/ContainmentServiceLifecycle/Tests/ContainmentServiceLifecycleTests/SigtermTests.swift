import Foundation
import Testing

/// A real SIGTERM to a real process: `containment-service-demo` runs its tree
/// in a `ServiceGroup` with `gracefulShutdownSignals: [.sigterm, .sigint]`;
/// the signal tears the tree down in V3 order and the process exits 0.
@Suite(.timeLimit(.minutes(1)))
struct SigtermTests {
  /// The demo, built beside this test bundle by `swift build` / `swift test`.
  private func demoExecutable() throws -> URL {
    // macOS runs the tests from an .xctest bundle; Linux from an executable. Both sit in the build folder.
    let testBundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
    let folder = try #require(
      testBundle?.bundleURL.deletingLastPathComponent() ?? Bundle.main.executableURL?.deletingLastPathComponent())
    let demo = folder.appendingPathComponent("containment-service-demo")
    try #require(
      FileManager.default.isExecutableFile(atPath: demo.path),
      "\(demo.path) is missing: `swift build` builds it")
    return demo
  }

  @Test func sigtermTearsTheTreeDownInOrderAndTheProcessExitsZero_V5() async throws {
    let demo = try ChildProcess(try demoExecutable())
    let startup = await demo.lines(through: "ready", atMost: 20)
    #expect(
      startup == [
        "App.viewWillAppear", "Sidebar.viewWillAppear", "Content.viewWillAppear", "Detail.viewWillAppear",
        "App.viewDidAppear", "Sidebar.viewDidAppear", "Content.viewDidAppear", "Detail.viewDidAppear",
        "ready",
      ], "standard error:\n\(demo.standardError)")
    try #require(startup.last == "ready")

    demo.send(SIGTERM)
    let shutdown = await demo.remainingLines(atMost: 20)
    let exit = await demo.exit()
    #expect(
      shutdown == [
        // Off screen (A1 order), parents first.
        "App.viewWillDisappear", "Sidebar.viewWillDisappear", "Content.viewWillDisappear", "Detail.viewWillDisappear",
        "App.viewDidDisappear", "Sidebar.viewDidDisappear", "Content.viewDidDisappear", "Detail.viewDidDisappear",
        // Stopped children before parents, siblings in reverse order.
        "Detail.viewDidTearDown", "Content.viewDidTearDown", "Sidebar.viewDidTearDown", "App.viewDidTearDown",
        "stopped",
      ], "standard error:\n\(demo.standardError)")
    #expect(exit == ChildProcess.Exit(exited: true, status: 0), "standard error:\n\(demo.standardError)")
  }
}
