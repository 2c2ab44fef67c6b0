/// Finds controllers that declare `willMove(toParent:)` or
/// `didMove(toParent:)`, UIKit's names, which in Containment are the verbs a
/// container calls (the hooks are `viewWillMove(toParent:)` and
/// `viewDidMove(toParent:)`).
///
/// Swift lets a type declare a method with a protocol extension's name and
/// signature and calls it silently in place of the extension's, so the
/// compiler cannot catch the mistake; this check does, over all the files of
/// one target at once (a conformance and the method may be in different
/// files). A type conforms when its declaration or any extension of it lists
/// `ViewController`, or a protocol that refines it, among its inherited
/// types. The `ContainmentHookNames` build tool plugin runs it on every build
/// and fails the build on a finding.
public struct HookNameCheck {
  /// A Swift source file: its path (used in findings) and its text.
  public struct File: Sendable {
    /// The path findings name.
    public var path: String
    /// The file's text.
    public var text: String

    /// A file with its path and text.
    public init(path: String, text: String) {
      self.path = path
      self.text = text
    }
  }

  /// The verbs a controller must not declare.
  static let verbs: Set<String> = ["willMove", "didMove"]

  /// The findings in `files`, in file order, then by position.
  public static func findings(in files: [File]) -> [HookNameFinding] {
    let declarations = files.map { file in
      (file, TypeDeclarationScanner.declarations(in: SourceTokenizer.tokens(of: file.text)))
    }
    let controllers = conformingNames(declarations.flatMap(\.1))
    var findings: [HookNameFinding] = []
    for (file, fileDeclarations) in declarations {
      for declaration in fileDeclarations where controllers.contains(declaration.name) {
        for member in declaration.memberFunctions
        where verbs.contains(member.name.text) && member.firstLabel == "toParent" {
          findings.append(
            HookNameFinding(
              file: file.path, line: member.name.line, column: member.name.column,
              typeName: declaration.name, verb: member.name.text))
        }
      }
    }
    return findings
  }

  /// The names that conform to `ViewController`: listing it, or a name that
  /// does, among their inherited types (to a fixed point).
  static func conformingNames(_ declarations: [TypeDeclaration]) -> Set<String> {
    var names: Set<String> = ["ViewController"]
    var grew = true
    while grew {
      grew = false
      for declaration in declarations where !names.contains(declaration.name) {
        if !declaration.inherited.isDisjoint(with: names) {
          names.insert(declaration.name)
          grew = true
        }
      }
    }
    names.remove("ViewController")
    return names
  }
}
