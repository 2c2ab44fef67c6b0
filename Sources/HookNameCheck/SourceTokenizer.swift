/// Splits Swift source into ``SourceToken``s, skipping comments (nested
/// block comments included) and string literals (single-line, multi-line and
/// raw; the code of an interpolation is tokenized).
///
/// It is not a Swift parser: it only has to find declarations reliably, so
/// numbers, operators and regex literals come out as loose characters.
public struct SourceTokenizer {
  private let characters: [Character]
  private var index = 0
  private var line = 1
  private var column = 1
  private var tokens: [SourceToken] = []

  /// Tokenizes `source`.
  public static func tokens(of source: String) -> [SourceToken] {
    var tokenizer = SourceTokenizer(characters: Array(source))
    tokenizer.scanCode(untilUnbalancedParenthesis: false)
    return tokenizer.tokens
  }

  private init(characters: [Character]) {
    self.characters = characters
  }

  private func peek(_ offset: Int = 0) -> Character? {
    index + offset < characters.count ? characters[index + offset] : nil
  }

  private mutating func advance() {
    if characters[index] == "\n" {
      line += 1
      column = 1
    } else {
      column += 1
    }
    index += 1
  }

  /// Scans code; inside an interpolation it returns after the `)` that
  /// closes it.
  private mutating func scanCode(untilUnbalancedParenthesis: Bool) {
    var depth = 0
    while let character = peek() {
      if character == "/", peek(1) == "/" {
        while let next = peek(), next != "\n" { advance() }
      } else if character == "/", peek(1) == "*" {
        skipBlockComment()
      } else if character == "#" || character == "\"" {
        if !scanStringLiteral() {
          emitPunctuation()
        }
      } else if character == "`" {
        scanBacktickedIdentifier()
      } else if character == "_" || character.isLetter {
        scanWord()
      } else if character.isWhitespace || character.isNumber {
        advance()
      } else {
        if untilUnbalancedParenthesis {
          if character == "(" { depth += 1 }
          if character == ")" {
            if depth == 0 {
              advance()
              return
            }
            depth -= 1
          }
        }
        emitPunctuation()
      }
    }
  }

  private mutating func emitPunctuation() {
    tokens.append(SourceToken(String(characters[index]), line: line, column: column))
    advance()
  }

  private mutating func scanWord() {
    let start = (index, line, column)
    while let next = peek(), next == "_" || next.isLetter || next.isNumber { advance() }
    tokens.append(SourceToken(String(characters[start.0..<index]), line: start.1, column: start.2))
  }

  private mutating func scanBacktickedIdentifier() {
    let start = (line, column)
    advance()
    let textStart = index
    while let next = peek(), next != "`", next != "\n" { advance() }
    let text = String(characters[textStart..<index])
    if peek() == "`" { advance() }
    tokens.append(SourceToken(text, line: start.0, column: start.1))
  }

  private mutating func skipBlockComment() {
    var depth = 0
    repeat {
      if peek() == "/", peek(1) == "*" {
        depth += 1
        advance()
        advance()
      } else if peek() == "*", peek(1) == "/" {
        depth -= 1
        advance()
        advance()
      } else {
        advance()
      }
    } while depth > 0 && peek() != nil
  }

  /// Skips a string literal starting here (`"`, `"""`, or a raw string's
  /// `#`s); returns false, consuming nothing, when a `#` starts no string
  /// (`#if`, `#available`, ...).
  private mutating func scanStringLiteral() -> Bool {
    var hashes = 0
    while peek(hashes) == "#" { hashes += 1 }
    guard peek(hashes) == "\"" else { return false }
    for _ in 0..<hashes { advance() }
    let multiline = peek(1) == "\"" && peek(2) == "\""
    let quotes = multiline ? 3 : 1
    for _ in 0..<quotes { advance() }
    while let character = peek() {
      if character == "\\", (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
        let escaped = peek(1 + hashes)
        for _ in 0...hashes { advance() }
        if escaped == "(" {
          advance()
          scanCode(untilUnbalancedParenthesis: true)
        } else if escaped != nil {
          advance()
        }
      } else if character == "\"", (0..<quotes).allSatisfy({ peek($0) == "\"" }),
        (0..<hashes).allSatisfy({ peek(quotes + $0) == "#" })
      {
        for _ in 0..<(quotes + hashes) { advance() }
        return true
      } else if character == "\n", !multiline {
        return true
      } else {
        advance()
      }
    }
    return true
  }
}
