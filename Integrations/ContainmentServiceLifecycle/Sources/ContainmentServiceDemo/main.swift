// containment-service-demo: a small tree run as a service in a ServiceGroup
// that shuts down gracefully on SIGTERM or SIGINT.
//
//     Window ─ App ─┬─ Sidebar
//                   └─ Content ─ Detail
//
// Standard output: every appearance and teardown hook as "Name.hook", "ready"
// once the tree is shown and idle, "stopped" once the group has returned.
// Standard error: the tree's events through swift-log, at the level given by
// `--log-level` (default: info, which shows only warnings and errors).
// Exits 0 after a graceful shutdown.

import Containment
import ContainmentServiceLifecycle
import Logging
import ServiceLifecycle

let arguments = CommandLine.arguments
let level =
  arguments.firstIndex(of: "--log-level").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
  .flatMap(Logger.Level.init(rawValue:)) ?? .info
LoggingSystem.bootstrap { label in
  var handler = StreamLogHandler.standardError(label: label)
  handler.logLevel = level
  return handler
}
let logger = Logger(label: "containment-service-demo")

// The tree is built off screen: no appearance hooks until the service shows it.
let app = Screen("App")
let sidebar = Screen("Sidebar")
let content = Screen("Content")
let detail = Screen("Detail")
try await app.embed(sidebar)
try await app.embed(content)
try await content.embed(detail)

// A stop hook may take 5 s before it is cancelled, then 1 s before it is abandoned.
let window = Window(
  environment: ContainmentEnvironment(
    clock: ContinuousClock(), teardown: TeardownPolicy(graceful: .seconds(5), abandonAfter: .seconds(1))))
let service = ContainmentService(window: window, root: app, logger: logger)

var configuration = ServiceGroupConfiguration(
  services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
// Longer than the teardown policy: the group lets the tree's teardown escalate by itself.
configuration.maximumGracefulShutdownDuration = .seconds(10)
configuration.maximumCancellationDuration = .seconds(10)
let group = ServiceGroup(configuration: configuration)

async let announced: Void = {
  do {
    try await service.ready()
    Output.line("ready")
  } catch {
    Output.line("not ready: \(error)")
  }
}()
try await group.run()
await announced
Output.line("stopped")
