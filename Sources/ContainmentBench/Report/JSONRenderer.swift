/// The machine-readable result (`--json`): one JSON object.
///
/// Written by hand: the package depends on nothing, not even Foundation.
enum JSONRenderer {
  static func render(_ report: BenchReport) -> String {
    let figures = report.figures.map { figure in
      object([
        ("key", string(figure.key)),
        ("group", string(figure.group.rawValue)),
        ("label", string(figure.label)),
        ("unit", string(figure.unit.rawValue)),
        ("median", number(figure.median)),
        ("min", number(figure.minimum)),
        ("max", number(figure.maximum)),
        ("samples", "[" + figure.samples.map(number).joined(separator: ", ") + "]"),
        ("operations", String(figure.operations)),
        ("note", string(figure.note)),
      ])
    }
    let targets = report.outcomes.map { outcome in
      object([
        ("key", string(outcome.target.key)),
        ("statement", string(outcome.target.statement)),
        ("formula", string(outcome.target.formula)),
        ("comparison", string(outcome.target.comparison.rawValue)),
        ("threshold", number(outcome.target.threshold)),
        ("value", outcome.value.map(number) ?? "null"),
        ("met", outcome.met.map { $0 ? "true" : "false" } ?? "null"),
      ])
    }
    return object([
      ("quick", report.options.quick ? "true" : "false"),
      ("repetitions", String(report.options.reps)),
      ("cores", String(report.machine.cores)),
      ("loadBefore", "[" + report.machine.load.map(number).joined(separator: ", ") + "]"),
      ("loadAfter", "[" + report.machineAfter.load.map(number).joined(separator: ", ") + "]"),
      ("seconds", number(report.seconds)),
      ("figures", "[\n" + figures.joined(separator: ",\n") + "\n]"),
      ("targets", "[\n" + targets.joined(separator: ",\n") + "\n]"),
      ("failures", "[" + report.failures.map(string).joined(separator: ", ") + "]"),
      ("summary", string(report.summaryLine)),
    ])
  }

  private static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
  }

  private static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    return String(value)
  }

  private static func string(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
