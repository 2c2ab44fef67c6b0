import CommandLineOptions

/// The command line of `session-server`: how many sessions to serve.
struct ServerOptions: ToolOptions {
  static let toolName = "session-server"
  static let usage = """
    usage: session-server [--sessions N]
      --sessions N       serve N sessions at once (default 200); the middle one's backend hangs
      --help, -h         this text
    The last line is: session-server: <N> sessions served, <R> requests, <F> faults isolated
    Exit status: 0 if every session was served and exactly one fault isolated; 1 otherwise;
    64 on bad usage (nothing runs).
    """

  /// How many sessions (trees) to serve at once.
  var sessions = 200

  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
    switch flag {
    case "--sessions": sessions = try arguments.count(of: flag, atLeast: 1)
    default: throw .unknownFlag(flag)
    }
  }
}
