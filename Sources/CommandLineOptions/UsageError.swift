/// A command line the tool cannot run: an unknown flag, or a flag whose
/// value is missing or malformed.
///
/// Nothing has run when it is thrown; the tool prints ``message`` and its usage
/// to standard error and exits with ``ExitStatus/usage``.
package struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// One line that names the flag and what is wrong with it.
  package let message: String

  package init(_ message: String) { self.message = message }

  /// `argument` is not a flag of this tool.
  package static func unknownFlag(_ argument: String) -> UsageError {
    UsageError("unknown argument \(argument)")
  }

  /// `flag` takes a value (`what`), and none follows it.
  package static func missingValue(_ flag: String, _ what: String) -> UsageError {
    UsageError("\(flag) needs \(what)")
  }

  /// `value`, given to `flag`, is not `what` the flag takes.
  package static func badValue(_ flag: String, _ value: String, _ what: String) -> UsageError {
    UsageError("\(flag): \(value) is not \(what)")
  }

  package var description: String { message }
}
