/// What a command line asks a tool to do (``ToolOptions/invocation(_:)``).
package enum Invocation<Options> {
  /// Run with these options.
  case run(Options)
  /// Print a text and exit, running nothing: `--help`, or a bad command line.
  case exit(EarlyExit)
}

extension Invocation: Sendable where Options: Sendable {}
