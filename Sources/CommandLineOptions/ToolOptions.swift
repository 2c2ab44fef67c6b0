/// A command-line tool's options, read from its command line.
///
/// Every executable of the package reads its arguments the same way:
///
/// - Arguments are read left to right. `--help` or `-h` stops the reading:
///   the tool prints its ``usage`` to standard output and exits with
///   ``ExitStatus/success`` without running anything.
/// - An unknown flag, or a flag whose value is missing or malformed, stops it
///   too: the tool prints the error and its usage to standard error and exits
///   with ``ExitStatus/usage`` (64), without running anything.
///
/// A tool declares its flags in ``apply(_:from:)`` and calls
/// ``parseOrExit(_:)`` first thing:
///
/// ```swift
/// struct Options: ToolOptions {
///   static let toolName = "two-tab"
///   static let usage = "usage: two-tab [--concurrent N]"
///   var concurrent: Int?
///
///   mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
///     switch flag {
///     case "--concurrent": concurrent = try arguments.count(of: flag, atLeast: 1)
///     default: throw .unknownFlag(flag)
///     }
///   }
/// }
///
/// let options = Options.parseOrExit()
/// ```
package protocol ToolOptions: Sendable {
  /// The tool's name, as users type it: the prefix of its error messages.
  static var toolName: String { get }
  /// The usage text: the synopsis, then one line or more per flag.
  static var usage: String { get }

  /// The options of a command line with no flags.
  init()

  /// Applies `flag`, reading its value from `arguments` if it takes one.
  /// Throws ``UsageError/unknownFlag(_:)`` for a flag the tool does not have.
  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError)
}

extension ToolOptions {
  /// What `arguments` (without the program's name) ask for: a run with the
  /// options they set, or an exit with the text to print.
  ///
  /// Has no effect.
  package static func invocation(_ arguments: [String]) -> Invocation<Self> {
    var options = Self()
    var cursor = ArgumentCursor(arguments)
    do throws(UsageError) {
      while let flag = cursor.next() {
        if flag == "--help" || flag == "-h" { return .exit(.help(usage)) }
        try options.apply(flag, from: &cursor)
      }
    } catch {
      return .exit(.usageError(error, toolName: toolName, usage: usage))
    }
    return .run(options)
  }

  /// The options `arguments` set; for `--help` or a bad command line, prints
  /// what ``invocation(_:)`` says and exits the process instead.
  package static func parseOrExit(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Self {
    switch invocation(arguments) {
    case .run(let options): options
    case .exit(let early): early.perform()
    }
  }
}
