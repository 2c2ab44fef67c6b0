/// The arguments of a command line not read yet, and typed readers for a
/// flag's value.
///
/// A flag's value is the argument after it. An argument that starts with
/// `--` is never taken as a value: `--svg --json` is `--svg` with its path
/// missing, not a file named `--json`.
///
/// ```swift
/// var arguments = ArgumentCursor(["--seconds", "5", "--json"])
/// arguments.next()                            // "--seconds"
/// try arguments.seconds(of: "--seconds")      // 5.0
/// arguments.next()                            // "--json"
/// arguments.next()                            // nil
/// ```
package struct ArgumentCursor: Sendable {
  private var remaining: ArraySlice<String>

  /// The arguments, without the program's name.
  package init(_ arguments: [String]) { remaining = arguments[...] }

  /// The next argument (a flag, when the caller reads flags), consumed.
  package mutating func next() -> String? { remaining.popFirst() }

  /// The value of `flag`, consumed; `what` names what the flag takes, for the
  /// error ("a path").
  ///
  /// Throws if no argument follows or the next is a flag.
  package mutating func value(of flag: String, _ what: String) throws(UsageError) -> String {
    guard let value = remaining.first, !value.hasPrefix("--") else { throw .missingValue(flag, what) }
    remaining.removeFirst()
    return value
  }

  /// A whole number of at least `minimum` (decimal).
  package mutating func count(of flag: String, atLeast minimum: Int = 0) throws(UsageError) -> Int {
    let what = minimum == 0 ? "a count" : "a whole number of at least \(minimum)"
    let text = try value(of: flag, what)
    guard let number = Int(text), number >= minimum else { throw .badValue(flag, text, what) }
    return number
  }

  /// A number of seconds, zero or more (decimals allowed).
  package mutating func seconds(of flag: String) throws(UsageError) -> Double {
    let what = "a duration in seconds"
    let text = try value(of: flag, what)
    guard let number = Double(text), number.isFinite, number >= 0 else { throw .badValue(flag, text, what) }
    return number
  }

  /// One of `Choice`'s cases, by its raw value.
  package mutating func choice<Choice: RawRepresentable & CaseIterable>(
    of flag: String
  ) throws(UsageError) -> Choice where Choice.RawValue == String {
    let what = Self.oneOf(Choice.self)
    let text = try value(of: flag, what)
    guard let choice = Choice(rawValue: text) else { throw .badValue(flag, text, what) }
    return choice
  }

  /// A comma-separated list of `Choice`'s raw values (at least one).
  package mutating func choices<Choice: RawRepresentable & CaseIterable & Hashable>(
    of flag: String
  ) throws(UsageError) -> Set<Choice> where Choice.RawValue == String {
    let text = try value(of: flag, "a comma-separated list")
    var choices: Set<Choice> = []
    for name in text.split(separator: ",") {
      guard let choice = Choice(rawValue: String(name)) else {
        throw .badValue(flag, String(name), Self.oneOf(Choice.self))
      }
      choices.insert(choice)
    }
    guard !choices.isEmpty else { throw .badValue(flag, text, "a comma-separated list") }
    return choices
  }

  /// "one of a, b, c": what a choice flag takes.
  private static func oneOf<Choice: RawRepresentable & CaseIterable>(
    _: Choice.Type
  ) -> String where Choice.RawValue == String {
    "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", ")
  }
}
