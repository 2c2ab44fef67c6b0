/// One token of Swift source as the hook-name check sees it: an identifier,
/// keyword or single punctuation character, with where it starts.
///
/// Comments and string literals produce no tokens (code inside a string's
/// interpolation does), so text in them is never mistaken for a declaration.
public struct SourceToken: Equatable, Sendable {
  /// The token's text: an identifier (without backticks) or one character.
  public var text: String
  /// The 1-based line it starts on.
  public var line: Int
  /// The 1-based column (in characters) it starts at.
  public var column: Int

  /// A token with its text and position.
  public init(_ text: String, line: Int, column: Int) {
    self.text = text
    self.line = line
    self.column = column
  }

  /// Whether the token is an identifier or keyword (not punctuation).
  public var isWord: Bool {
    guard let first = text.first else { return false }
    return first == "_" || first.isLetter
  }
}
