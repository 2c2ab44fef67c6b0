import Containment

/// An SVG timeline of a tree's events.
///
/// - One lane per controller, labelled with its path, in the order the
///   controllers first appear; one mark per event on its controller's lane,
///   its shape and colour by ``TimelineMark``. A legend names them.
/// - x is time, on the axis drawn below the lanes (ticks in seconds since
///   the tree's environment was made), so an animated transition is as long
///   as it ran. Events at one instant would cover each other, so each event
///   also moves x on by a fixed step: the axis stretches where many events
///   happen at once, and its ticks are not evenly spaced.
/// - A band behind the events of each transaction, labelled below the axis
///   with its id and how long it ran; a bar on a container's lane from each
///   `transitionBegan` to its `transitionEnded`, labelled with its length.
struct TimelinePicture {
  private var events: [LifecycleEvent] = []

  /// How far each event moves x on, besides its time.
  private static let step = 12.0
  private static let pixelsPerSecond = 1000.0
  private static let laneHeight = 24.0
  private static let legendColumn = 340.0
  private static let bands = ["#e8f0fe", "#fef3e0"]
  private static let transitionColour = TimelineMark.transition.colour

  mutating func add(_ event: LifecycleEvent) { events.append(event) }

  /// The picture of the events added so far, in the order added (the
  /// stream's); their times must never go back.
  func svg() -> String {
    var lanes: [String] = []
    for event in events where !lanes.contains(event.path) { lanes.append(event.path) }
    let times = events.map { TimelineFormat.inSeconds($0.timestamp) }
    let left = 24 + 7 * Double(lanes.map(\.count).max() ?? 0)
    func x(_ index: Int) -> Double {
      left + Double(index) * Self.step + times[index] * Self.pixelsPerSecond + Self.step / 2
    }
    func x(at time: Double) -> Double {
      left + Double(times.count { $0 < time }) * Self.step + time * Self.pixelsPerSecond
    }
    let right = events.isEmpty ? left : x(events.count - 1) + Self.step / 2
    let width = max(right + 60, 2 * Self.legendColumn + 16)

    let legend = legendEntries()
    let columns = max(1, Int((width - 16) / Self.legendColumn))
    let legendTop = 52.0
    let lanesTop = legendTop + Double((legend.count + columns - 1) / columns) * 18 + 8
    func y(_ path: String) -> Double {
      lanesTop + Double(lanes.firstIndex(of: path) ?? 0) * Self.laneHeight + Self.laneHeight / 2
    }
    let lanesBottom = lanesTop + Double(lanes.count) * Self.laneHeight
    let axisY = lanesBottom + 6
    let height = axisY + 110

    var out = [
      #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(height))" font-family="monospace" font-size="11">"#,
      #"<rect width="100%" height="100%" fill="white"/>"#,
      #"<text x="8" y="18" font-size="13">Containment lifecycle timeline: one lane per controller</text>"#,
      "<text x=\"8\" y=\"36\" fill=\"#555\">x: time (axis below). Each event also moves x on by \(Int(Self.step)) px,"
        + " so events at one instant stand apart and the ticks are not evenly spaced.</text>",
    ]
    // legend
    for (number, entry) in legend.enumerated() {
      let entryX = 8 + Double(number % columns) * Self.legendColumn
      let entryY = legendTop + Double(number / columns) * 18
      out.append(entry.swatch(entryX + 8, entryY))
      out.append("<text x=\"\(entryX + 22)\" y=\"\(entryY + 4)\">\(Self.escape(entry.label))</text>")
    }
    // lanes: a stripe and a label each
    for (number, lane) in lanes.enumerated() {
      let top = lanesTop + Double(number) * Self.laneHeight
      let fill = number.isMultiple(of: 2) ? "#f6f6f6" : "#ffffff"
      out.append(
        "<rect x=\"0\" y=\"\(top)\" width=\"\(width)\" height=\"\(Self.laneHeight)\" fill=\"\(fill)\"/>")
      out.append("<text x=\"8\" y=\"\(y(lane) + 4)\">\(Self.escape(lane))</text>")
    }
    // transaction bands, labelled below the axis
    for (number, span) in transactionSpans().enumerated() {
      let from = x(span.first) - Self.step / 2
      let bandWidth = x(span.last) + Self.step / 2 - from
      let length = Self.milliseconds(times[span.last] - times[span.first])
      let label = "\(span.id)" + (length == "0 ms" ? "" : " \(length)")
      out.append(
        "<rect x=\"\(from)\" y=\"\(lanesTop)\" width=\"\(bandWidth)\" height=\"\(lanesBottom - lanesTop)\""
          + " fill=\"\(Self.bands[number % 2])\" opacity=\"0.8\"><title>\(label)</title></rect>")
      let labelX = from + bandWidth / 2 + 3
      out.append(
        "<text x=\"\(labelX)\" y=\"\(axisY + 34)\" font-size=\"9\" fill=\"#555\""
          + " transform=\"rotate(90 \(labelX) \(axisY + 34))\">\(label)</text>")
    }
    for lane in lanes {
      out.append("<line x1=\"\(left)\" y1=\"\(y(lane))\" x2=\"\(right)\" y2=\"\(y(lane))\" stroke=\"#ccc\"/>")
    }
    // transitions, as long as they ran
    for (began, ended) in transitionPairs() {
      let laneY = y(events[began].path)
      let length = Self.milliseconds(times[ended] - times[began])
      out.append(
        "<rect x=\"\(x(began))\" y=\"\(laneY - 7)\" width=\"\(x(ended) - x(began))\" height=\"14\" rx=\"3\""
          + " fill=\"\(Self.transitionColour)\" opacity=\"0.2\"><title>transition, \(length)</title></rect>")
      out.append(
        "<text x=\"\(x(began) + 6)\" y=\"\(laneY - 9)\" font-size=\"9\" fill=\"\(Self.transitionColour)\">\(length)</text>"
      )
    }
    // marks
    for (index, event) in events.enumerated() {
      let title = Self.escape(
        "\(TimelineFormat.seconds(event.timestamp)) \(event.path) \(event.kind.name) \(TimelineFormat.detail(event.kind))"
      )
      out.append(TimelineMark(event.kind).svg(x: x(index), y: y(event.path), title: title))
    }
    // the time axis
    out.append("<line x1=\"\(left)\" y1=\"\(axisY)\" x2=\"\(right)\" y2=\"\(axisY)\" stroke=\"#333\"/>")
    let interval = Self.tickInterval(for: times.last ?? 0)
    var tick = 0
    while Double(tick) * interval <= (times.last ?? 0) + interval / 2 {
      let time = Double(tick) * interval
      let tickX = x(at: time)
      out.append("<line x1=\"\(tickX)\" y1=\"\(axisY)\" x2=\"\(tickX)\" y2=\"\(axisY + 5)\" stroke=\"#333\"/>")
      out.append(
        "<text x=\"\(tickX)\" y=\"\(axisY + 16)\" text-anchor=\"middle\">\(TimelineFormat.seconds(.seconds(time)))</text>"
      )
      tick += 1
    }
    return out.joined(separator: "\n") + "\n</svg>\n"
  }

  /// What the legend lists: every mark, then the transaction band and the
  /// transition bar; each with its swatch drawn at a point.
  private func legendEntries() -> [(label: String, swatch: (Double, Double) -> String)] {
    var entries: [(label: String, swatch: (Double, Double) -> String)] = TimelineMark.allCases.map { mark in
      (mark.meaning, { x, y in mark.svg(x: x, y: y, title: mark.meaning) })
    }
    entries.append(
      (
        "transaction (id and length below the axis)",
        { x, y in "<rect x=\"\(x - 6)\" y=\"\(y - 7)\" width=\"12\" height=\"14\" fill=\"\(Self.bands[0])\"/>" }
      ))
    entries.append(
      (
        "transition running (its length in ms)",
        { x, y in
          "<rect x=\"\(x - 6)\" y=\"\(y - 5)\" width=\"12\" height=\"10\" rx=\"3\" fill=\"\(Self.transitionColour)\" opacity=\"0.2\"/>"
        }
      ))
    return entries
  }

  /// The runs of consecutive events of one transaction: its id, and the
  /// indices of its first and last event.
  private func transactionSpans() -> [(id: TransactionID, first: Int, last: Int)] {
    var spans: [(id: TransactionID, first: Int, last: Int)] = []
    for (index, event) in events.enumerated() {
      guard let id = event.transaction else { continue }
      if let last = spans.indices.last, spans[last].id == id {
        spans[last].last = index
      } else {
        spans.append((id, index, index))
      }
    }
    return spans
  }

  /// Each `transitionBegan` with the `transitionEnded` of the same
  /// controller and transaction: their indices.
  private func transitionPairs() -> [(began: Int, ended: Int)] {
    var open: [String: Int] = [:]
    var pairs: [(began: Int, ended: Int)] = []
    for (index, event) in events.enumerated() {
      let key = "\(event.path) \(event.transaction.map { "\($0)" } ?? "-")"
      switch event.kind {
      case .transitionBegan: open[key] = index
      case .transitionEnded: if let began = open.removeValue(forKey: key) { pairs.append((began, index)) }
      default: break
      }
    }
    return pairs
  }

  /// The tick spacing that puts at most 12 ticks on an axis `length` seconds long.
  private static func tickInterval(for length: Double) -> Double {
    let factors = [2.0, 2.5, 2.0]  // 1, 2, 5, 10, 20, 50 ... milliseconds
    var interval = 0.001
    var next = 0
    while length / interval > 12 {
      interval *= factors[next % factors.count]
      next += 1
    }
    return interval
  }

  private static func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
