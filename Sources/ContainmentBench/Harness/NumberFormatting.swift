/// Fixed-point formatting without Foundation (the package depends on nothing).
enum NumberFormatting {
  /// `value` rounded to `decimals` places: `fixed(3.14159, 2) == "3.14"`.
  static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "n/a" : (value > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    guard rounded < 9e18 else { return String(value) }
    let scaled = UInt64(rounded)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    let integer = scaled / UInt64(scale)
    guard decimals > 0 else { return "\(sign)\(integer)" }
    var fraction = String(scaled % UInt64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return "\(sign)\(integer).\(fraction)"
  }

  /// Three significant digits, enough for a benchmark figure.
  static func significant(_ value: Double) -> String {
    guard value.isFinite else { return fixed(value, 0) }
    let magnitude = abs(value)
    if magnitude >= 100 { return fixed(value, 0) }
    if magnitude >= 10 { return fixed(value, 1) }
    if magnitude >= 1 { return fixed(value, 2) }
    return fixed(value, 3)
  }

  /// A figure with its unit, scaled for reading: "1.23 µs", "845 ns", "0.42 s".
  static func readable(_ value: Double, unit: Figure.Unit) -> String {
    switch unit {
    case .nanosecondsPerOperation:
      if value >= 1e6 { return significant(value / 1e6) + " ms" }
      if value >= 1e3 { return significant(value / 1e3) + " µs" }
      return significant(value) + " ns"
    case .seconds:
      if value < 1e-3 { return significant(value * 1e6) + " µs" }
      if value < 1 { return significant(value * 1e3) + " ms" }
      return significant(value) + " s"
    case .bytes:
      return fixed(value, 0) + " B"
    case .operationsPerSecond:
      if value >= 1e6 { return significant(value / 1e6) + " M/s" }
      if value >= 1e3 { return significant(value / 1e3) + " k/s" }
      return significant(value) + " /s"
    }
  }

  /// Pads `text` with spaces to `width` characters (left-aligned unless `right`).
  static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let missing = width - text.count
    guard missing > 0 else { return text }
    let padding = String(repeating: " ", count: missing)
    return right ? padding + text : text + padding
  }
}
