/// A type declaration or extension found in a file: its name, what it
/// lists as inherited, and the functions declared directly in its body.
struct TypeDeclaration: Equatable {
  /// A function declared directly in a type's body.
  struct MemberFunction: Equatable {
    /// The function's base name, where it is written.
    var name: SourceToken
    /// The first parameter's argument label (`toParent`), nil without parameters.
    var firstLabel: String?
  }

  /// `actor`, `class`, `struct`, `enum`, `protocol` or `extension`.
  var keyword: String
  /// The type's name; for an extension of a nested type (`A.B`), the last component.
  var name: String
  /// The last component of each inherited type's name (`Containment.ViewController` → `ViewController`).
  var inherited: Set<String>
  /// The functions declared directly in the body (not in nested types or closures).
  var memberFunctions: [MemberFunction]
}
