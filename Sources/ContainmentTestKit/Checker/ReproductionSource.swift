/// Writes the Swift Testing test that reproduces a reduced failure.
enum ReproductionSource {
  static func test<Fixture: CheckableContainer>(
    for checker: ContainerChecker<Fixture>, schedule: ContainerSchedule, interleaving: Interleaving,
    finding: CheckFinding, repetitions: Int
  ) -> String {
    var lines = ["/// Reduced by ContainerChecker from a failing run of \(checker.name). It found:"]
    lines += wrap("\(finding)", width: 96).map { "/// \($0)" }
    lines.append("@Test func \(testName(checker.name))() async {")
    lines.append("  let schedule = \(schedule.source(indent: 2))")
    if repetitions > 1 {
      lines.append("  // Found on threads only: it may take several runs to fail.")
      lines.append("  for _ in 0..<\(repetitions) {")
      lines.append(
        "    let findings = await \(checker.reference).check(schedule, interleaving: \(interleaving.source))")
      lines.append("    #expect(findings.isEmpty, \"\\(findings)\")")
      lines.append("    if !findings.isEmpty { break }")
      lines.append("  }")
    } else {
      lines.append("  let findings = await \(checker.reference).check(schedule, interleaving: \(interleaving.source))")
      lines.append("  #expect(findings.isEmpty, \"\\(findings)\")")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// `name` as a lowerCamelCase identifier, followed by `Reproduction`.
  static func testName(_ name: String) -> String {
    let words = name.split { !$0.isLetter && !$0.isNumber }
    var identifier = words.enumerated().map { index, word in
      index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
    }.joined()
    if identifier.first?.isNumber ?? true { identifier = "container" + identifier }
    return identifier + "Reproduction"
  }

  /// `text` in lines of at most about `width` characters, broken at spaces.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
