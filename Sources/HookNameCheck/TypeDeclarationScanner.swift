/// Finds ``TypeDeclaration``s in a token stream: a keyword that introduces a
/// type (or an extension), its name, its inheritance clause, and the
/// functions at the top level of its braces.
enum TypeDeclarationScanner {
  static let typeKeywords: Set<String> = ["actor", "class", "struct", "enum", "protocol", "extension"]
  /// Words after `class` that make it a modifier (`class func`), not a type.
  static let classModifierFollowers: Set<String> = [
    "func", "var", "let", "subscript", "override", "final", "static", "private", "fileprivate", "internal",
    "public", "open", "nonisolated", "init",
  ]

  static func declarations(in tokens: [SourceToken]) -> [TypeDeclaration] {
    var found: [TypeDeclaration] = []
    // Open braces: the index into `found` of the type whose body each one
    // opens, or nil for any other brace.
    var braces: [Int?] = []
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      switch token.text {
      case "{":
        braces.append(nil)
        index += 1
      case "}":
        _ = braces.popLast()
        index += 1
      case "func":
        if let owner = braces.last, let owner, let function = memberFunction(after: index, in: tokens) {
          found[owner].memberFunctions.append(function)
        }
        index += 1
      case let word where typeKeywords.contains(word):
        if let (declaration, bodyBrace) = typeHeader(at: index, in: tokens) {
          found.append(declaration)
          braces.append(found.count - 1)
          index = bodyBrace + 1
        } else {
          index += 1
        }
      default:
        index += 1
      }
    }
    return found
  }

  /// The declaration introduced at `start` and the index of its body's `{`,
  /// or nil when the keyword introduces no type there.
  static func typeHeader(at start: Int, in tokens: [SourceToken]) -> (TypeDeclaration, Int)? {
    let keyword = tokens[start].text
    if start > 0, tokens[start - 1].text == "." { return nil }
    if keyword == "class", start + 1 < tokens.count, classModifierFollowers.contains(tokens[start + 1].text) {
      return nil
    }
    var index = start + 1
    guard index < tokens.count, tokens[index].isWord else { return nil }
    var name = tokens[index].text
    index += 1
    // A dotted name (`extension Outer.Inner`): keep the last component.
    while index + 1 < tokens.count, tokens[index].text == ".", tokens[index + 1].isWord {
      name = tokens[index + 1].text
      index += 2
    }
    index = skippingAngleBrackets(from: index, in: tokens)
    var inherited: Set<String> = []
    if index < tokens.count, tokens[index].text == ":" {
      index += 1
      var last: String?
      while index < tokens.count, tokens[index].text != "{", tokens[index].text != "where" {
        let text = tokens[index].text
        if text == "<" {
          index = skippingAngleBrackets(from: index, in: tokens)
          continue
        }
        if text == "," || text == "&" {
          if let last { inherited.insert(last) }
          last = nil
        } else if tokens[index].isWord {
          last = text
        }
        index += 1
      }
      if let last { inherited.insert(last) }
    }
    while index < tokens.count, tokens[index].text != "{" {
      // A `where` clause; anything else (`;`, `}`) means no body.
      if tokens[index].text == "}" || tokens[index].text == ";" { return nil }
      index += 1
    }
    guard index < tokens.count else { return nil }
    return (TypeDeclaration(keyword: keyword, name: name, inherited: inherited, memberFunctions: []), index)
  }

  /// The function declared by the `func` at `index`.
  static func memberFunction(after index: Int, in tokens: [SourceToken]) -> TypeDeclaration.MemberFunction? {
    guard index + 1 < tokens.count, tokens[index + 1].isWord else { return nil }
    let name = tokens[index + 1]
    var position = skippingAngleBrackets(from: index + 2, in: tokens)
    guard position < tokens.count, tokens[position].text == "(" else { return nil }
    position += 1
    let label = position < tokens.count && tokens[position].isWord ? tokens[position].text : nil
    return TypeDeclaration.MemberFunction(name: name, firstLabel: label)
  }

  /// The index after a balanced `<...>` starting at `index`, or `index`.
  static func skippingAngleBrackets(from index: Int, in tokens: [SourceToken]) -> Int {
    guard index < tokens.count, tokens[index].text == "<" else { return index }
    var depth = 0
    var position = index
    while position < tokens.count {
      let text = tokens[position].text
      if text == "<" { depth += 1 }
      if text == ">" {
        depth -= 1
        if depth == 0 { return position + 1 }
      }
      if text == "{" { return position }
      position += 1
    }
    return position
  }
}
