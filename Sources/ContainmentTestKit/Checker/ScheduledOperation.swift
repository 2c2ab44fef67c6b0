/// One operation of a ``ContainerSchedule``: which of the checker's
/// operations, animated or not, and whether its task is cancelled.
public struct ScheduledOperation: Sendable, Hashable, CustomStringConvertible {
  /// The name of one of the checker's operations.
  public var name: String
  /// Passed to the operation's body.
  public var animated: Bool
  /// If set, the operation's task is cancelled by a task that starts with
  /// it and yields this many times first (0: at once).
  ///
  /// Nil: never cancelled.
  public var cancelledAfter: Int?

  /// The operation `name`, animated or not, cancelled after `cancelledAfter`
  /// yields of its canceller (or never).
  public init(_ name: String, animated: Bool = false, cancelledAfter: Int? = nil) {
    self.name = name
    self.animated = animated
    self.cancelledAfter = cancelledAfter
  }

  /// The same as ``init(_:animated:cancelledAfter:)``; reads well in a schedule: `.perform("tap first")`.
  public static func perform(_ name: String, animated: Bool = false, cancelledAfter: Int? = nil) -> ScheduledOperation {
    ScheduledOperation(name, animated: animated, cancelledAfter: cancelledAfter)
  }

  /// The operation in readable form, for example `tap first (animated, cancelled after 2)`.
  public var description: String {
    var traits: [String] = []
    if animated { traits.append("animated") }
    if let cancelledAfter { traits.append("cancelled after \(cancelledAfter)") }
    return traits.isEmpty ? name : "\(name) (\(traits.joined(separator: ", ")))"
  }

  /// The Swift expression that builds this value, for generated tests.
  var source: String {
    var arguments = [Self.literal(name)]
    if animated { arguments.append("animated: true") }
    if let cancelledAfter { arguments.append("cancelledAfter: \(cancelledAfter)") }
    return ".perform(\(arguments.joined(separator: ", ")))"
  }

  /// `text` as a Swift string literal.
  static func literal(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      case "\t": escaped += "\\t"
      default: escaped.append(character)
      }
    }
    return "\"\(escaped)\""
  }
}
