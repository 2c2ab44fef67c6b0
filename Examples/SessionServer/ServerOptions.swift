import CommandLineOptions

/// The command line of `session-server`: how many sessions to serve.
struct ServerOptions: ToolOptions {
  static let toolName = "session-server"
  static let usage = """
    usage: session-server [--sessions N] [--until-signal]
      --sessions N       serve N sessions at once (default 200); the middle one's backend hangs
      --until-signal     once every request is served, keep the trees up until SIGTERM or
                         SIGINT, then shut down in order (prints "waiting for SIGTERM")
      --help, -h         this text
    The last line is: session-server: <N> sessions served, <R> requests, <F> faults isolated
    Exit status: 0 if every session was served and exactly one fault isolated; 1 otherwise;
    64 on bad usage (nothing runs).
    """

  /// How many sessions (trees) to serve at once.
  var sessions = 200
  /// Whether the shutdown waits for SIGTERM or SIGINT.
  var untilSignal = false

  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
    switch flag {
    case "--sessions": sessions = try arguments.count(of: flag, atLeast: 1)
    case "--until-signal": untilSignal = true
    default: throw .unknownFlag(flag)
    }
  }
}
