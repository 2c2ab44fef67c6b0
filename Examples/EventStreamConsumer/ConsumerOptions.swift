import CommandLineOptions

/// The command line of `event-stream-consumer`: how to print the events,
/// and where to draw the timeline.
struct ConsumerOptions: ToolOptions {
  static let toolName = "event-stream-consumer"
  static let usage = """
    usage: event-stream-consumer [--json] [--svg FILE]
      (no flag)          print the scenario's events as a readable timeline
      --json             print them as JSON Lines, one event per line
      --svg FILE         also draw the timeline as an SVG picture into FILE
      --help, -h         this text
    Exit status: 0; 1 if FILE cannot be written; 64 on bad usage (nothing runs).
    """

  var format = TimelineFormat.text
  /// Where to write the SVG timeline; nil: no picture.
  var svgPath: String?

  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
    switch flag {
    case "--json": format = .json
    case "--svg": svgPath = try arguments.value(of: flag, "a file path")
    default: throw .unknownFlag(flag)
    }
  }
}
