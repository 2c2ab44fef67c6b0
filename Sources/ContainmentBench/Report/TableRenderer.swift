/// The human-readable table: figures by group, then the targets.
enum TableRenderer {
  static func render(_ report: BenchReport) -> String {
    var lines: [String] = []
    let mode = report.options.quick ? "quick" : "full"
    lines.append(
      "containment-bench (\(mode), release): median of \(report.options.reps) repetitions after a warm-up; [min–max]")
    lines.append("machine before: \(report.machine.description); after: \(report.machineAfter.description)")
    for group in BenchGroup.allCases {
      let figures = report.figures.filter { $0.group == group }
      guard !figures.isEmpty else { continue }
      lines.append("")
      lines.append("== \(group.title)")
      for figure in figures {
        let median = NumberFormatting.readable(figure.median, unit: figure.unit)
        let range =
          figure.samples.count > 1
          ? "[\(NumberFormatting.readable(figure.minimum, unit: figure.unit))–\(NumberFormatting.readable(figure.maximum, unit: figure.unit))]"
          : ""
        let note = figure.note.isEmpty ? "" : "  (\(figure.note))"
        lines.append(
          "  \(NumberFormatting.pad(figure.key, 34)) \(NumberFormatting.pad(median, 10, right: true))  "
            + "\(NumberFormatting.pad(range, 22))  \(figure.label)\(note)")
      }
    }
    lines.append("")
    lines.append("== Targets (benchmark figures, not assertions)")
    for outcome in report.outcomes {
      let status: String
      switch outcome.met {
      case true?: status = "met   "
      case false?: status = "MISSED"
      case nil: status = "n/a   "
      }
      let value = outcome.value.map { NumberFormatting.significant($0) + outcome.target.unit } ?? "not measured"
      lines.append(
        "  [\(status)] \(NumberFormatting.pad(outcome.target.key, 17)) \(NumberFormatting.pad(value, 10, right: true))  "
          + "target \(outcome.target.comparison.rawValue) \(NumberFormatting.significant(outcome.target.threshold))\(outcome.target.unit): "
          + "\(outcome.target.statement)  [\(outcome.target.formula)]")
    }
    if !report.failures.isEmpty {
      lines.append("")
      lines.append("== FAILED CHECKS (lost or duplicated work)")
      for failure in report.failures { lines.append("  \(failure)") }
    }
    lines.append("")
    lines.append("ran in \(NumberFormatting.readable(report.seconds, unit: .seconds))")
    return lines.joined(separator: "\n")
  }
}
