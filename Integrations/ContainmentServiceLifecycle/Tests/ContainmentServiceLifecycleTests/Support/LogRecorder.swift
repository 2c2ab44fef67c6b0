import InMemoryLogging
import Logging

/// Every record logged through its ``logger``, in order (swift-log's
/// `InMemoryLogHandler`): for tests that assert what a ``TreeEventLogger``
/// logged, level, message and metadata.
struct LogRecorder {
  private let handler = InMemoryLogHandler()

  /// A logger at `trace` whose records this recorder keeps.
  var logger: Logger {
    var logger = Logger(label: "test") { [handler] _ in handler }
    logger.logLevel = .trace
    return logger
  }

  /// Everything logged so far.
  var entries: [InMemoryLogHandler.Entry] { handler.entries }

  /// Everything logged so far as "level message", the part tests compare whole.
  var lines: [String] { entries.map { "\($0.level) \($0.message)" } }
}

extension Logger {
  /// A logger that drops everything: for service groups whose own logs a test does not read.
  static let silent = Logger(label: "silent") { _ in SwiftLogNoOpLogHandler() }
}
