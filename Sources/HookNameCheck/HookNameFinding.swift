/// A controller that declares one of the runtime's verbs as if it were a
/// hook: `willMove(toParent:)` or `didMove(toParent:)` in a type that conforms
/// to `ViewController`.
///
/// The runtime never calls such a method, and a container's
/// `child.willMove(toParent: nil)` on the type would run it instead of the
/// verb. Its hook is `viewWillMove(toParent:)` / `viewDidMove(toParent:)`.
public struct HookNameFinding: Equatable, Sendable, CustomStringConvertible {
  /// The file, as it was given to the check.
  public var file: String
  /// The 1-based line of the method's name.
  public var line: Int
  /// The 1-based column of the method's name.
  public var column: Int
  /// The controller type (or protocol refining `ViewController`) that declares it.
  public var typeName: String
  /// The verb it shadows: `willMove` or `didMove`.
  public var verb: String

  /// A finding at a position.
  public init(file: String, line: Int, column: Int, typeName: String, verb: String) {
    self.file = file
    self.line = line
    self.column = column
    self.typeName = typeName
    self.verb = verb
  }

  /// The hook to implement instead.
  public var hook: String { verb == "willMove" ? "viewWillMove" : "viewDidMove" }

  /// A compiler-style error line: `file:line:column: error: ...`.
  public var description: String {
    "\(file):\(line):\(column): error: '\(verb)(toParent:)' in '\(typeName)' is never called by the runtime: "
      + "in Containment '\(verb)(toParent:)' is the verb a container calls, and the hook is "
      + "'\(hook)(toParent:)'; rename it to '\(hook)(toParent:)' (as it is, a container's "
      + "'\(verb)(toParent:)' on '\(typeName)' could run this method instead of the verb)"
  }
}
