#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The end of a tool that runs nothing: the text it prints, where, and the
/// status it exits with.
package struct EarlyExit: Hashable, Sendable {
  /// The status the process exits with.
  package let status: ExitStatus
  /// Where ``text`` goes.
  package let stream: StandardStream
  /// What the tool prints, ending with a newline.
  package let text: String

  package init(status: ExitStatus, stream: StandardStream, text: String) {
    self.status = status
    self.stream = stream
    self.text = text
  }

  /// `--help`: the usage on standard output, status 0.
  package static func help(_ usage: String) -> EarlyExit {
    EarlyExit(status: .success, stream: .output, text: usage + "\n")
  }

  /// A bad command line: "`tool`: `message`", then the usage, on standard
  /// error, status 64.
  package static func usageError(_ error: UsageError, toolName: String, usage: String) -> EarlyExit {
    EarlyExit(status: .usage, stream: .error, text: "\(toolName): \(error.message)\n\(usage)\n")
  }

  /// Prints ``text`` on ``stream`` and ends the process with ``status``.
  package func perform() -> Never {
    stream.write(text)
    exit(status.code)
  }
}
