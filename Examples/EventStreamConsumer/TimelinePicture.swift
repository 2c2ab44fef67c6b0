import Containment

/// An SVG timeline: one lane per controller, a mark per event (x = order of
/// arrival), and a band behind the events of each transaction.
struct TimelinePicture {
  private var events: [LifecycleEvent] = []

  mutating func add(_ event: LifecycleEvent) { events.append(event) }

  func svg() -> String {
    var lanes: [String] = []
    for event in events where !lanes.contains(event.path) { lanes.append(event.path) }
    let laneHeight = 28.0, left = 170.0, step = 14.0, top = 30.0
    let width = left + Double(events.count) * step + 40
    let height = top + Double(lanes.count) * laneHeight + 30
    func x(_ index: Int) -> Double { left + Double(index) * step + step / 2 }
    func y(_ path: String) -> Double { top + Double(lanes.firstIndex(of: path) ?? 0) * laneHeight + laneHeight / 2 }

    var out =
      #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(height))" font-family="monospace" font-size="11">"#
    out += "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
    out +=
      "\n<text x=\"8\" y=\"18\" font-size=\"13\">Containment lifecycle timeline (x: event order; bands: transactions)</text>"
    // transaction bands
    var spans: [(TransactionID, Int, Int)] = []
    for (index, event) in events.enumerated() {
      guard let tx = event.transaction else { continue }
      if let last = spans.indices.last, spans[last].0 == tx {
        spans[last].2 = index
      } else {
        spans.append((tx, index, index))
      }
    }
    for (number, span) in spans.enumerated() {
      let fill = number % 2 == 0 ? "#e8f0fe" : "#fef3e0"
      out +=
        "\n<rect x=\"\(x(span.1) - step / 2)\" y=\"\(top - 4)\" width=\"\(Double(span.2 - span.1 + 1) * step)\" height=\"\(Double(lanes.count) * laneHeight + 8)\" fill=\"\(fill)\"><title>\(span.0)</title></rect>"
      out +=
        "\n<text x=\"\(x(span.1) - step / 2 + 1)\" y=\"\(height - 8)\" font-size=\"9\" fill=\"#555\">\(span.0)</text>"
    }
    // lanes
    for lane in lanes {
      out += "\n<line x1=\"\(left)\" y1=\"\(y(lane))\" x2=\"\(width - 20)\" y2=\"\(y(lane))\" stroke=\"#ccc\"/>"
      out += "\n<text x=\"8\" y=\"\(y(lane) + 4)\">\(Self.escape(lane))</text>"
    }
    // marks
    for (index, event) in events.enumerated() {
      let color = Self.color(event.kind)
      out +=
        "\n<circle cx=\"\(x(index))\" cy=\"\(y(event.path))\" r=\"5\" fill=\"\(color)\"><title>\(Self.escape("\(TimelineFormat.seconds(event.timestamp)) \(event.path) \(event.kind.name) \(TimelineFormat.detail(event.kind))"))</title></circle>"
    }
    out += "\n</svg>\n"
    return out
  }

  static func color(_ kind: LifecycleEvent.Kind) -> String {
    switch kind {
    case .viewWillAppear, .viewIsAppearing: "#7cb342"
    case .viewDidAppear: "#2e7d32"
    case .viewWillDisappear: "#ef6c00"
    case .viewDidDisappear: "#c62828"
    case .willMove, .didMove, .childAdded, .childRemoved, .presented, .dismissed: "#1565c0"
    case .transitionBegan, .transitionEnded, .batchCommitted: "#6a1b9a"
    case .unbalancedAppearanceTransition, .callIgnored, .eventsLost, .lagged: "#000000"
    default: "#9e9e9e"
    }
  }

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
