import Containment

/// How the timeline picture draws an event: one colour and shape per family
/// of events, each named in the picture's legend.
enum TimelineMark: CaseIterable {
  case appearing, appeared, disappearing, disappeared
  case containment, presentation, transition, problem, lifecycle

  init(_ kind: LifecycleEvent.Kind) {
    switch kind {
    case .viewWillAppear, .viewIsAppearing: self = .appearing
    case .viewDidAppear: self = .appeared
    case .viewWillDisappear: self = .disappearing
    case .viewDidDisappear: self = .disappeared
    case .willMove, .didMove, .childAdded, .childRemoved: self = .containment
    case .presented, .dismissed: self = .presentation
    case .transitionBegan, .transitionEnded, .batchCommitted: self = .transition
    case .unbalancedAppearanceTransition, .callIgnored, .eventsLost, .lagged, .hookTimedOut, .hookSkipped,
      .hookStalled, .hookAbandoned:
      self = .problem
    case .subscribed, .terminated, .viewDidLoad, .viewDidTearDown, .traitCollectionDidChange: self = .lifecycle
    }
  }

  /// What the legend says the mark stands for.
  var meaning: String {
    switch self {
    case .appearing: "viewWillAppear, viewIsAppearing"
    case .appeared: "viewDidAppear"
    case .disappearing: "viewWillDisappear"
    case .disappeared: "viewDidDisappear"
    case .containment: "willMove, didMove, childAdded/Removed"
    case .presentation: "presented, dismissed"
    case .transition: "transitionBegan/Ended, batchCommitted"
    case .problem: "unbalanced, ignored, lost, lagged, hook faults"
    case .lifecycle: "load, tear-down, subscribed, terminated"
    }
  }

  var colour: String {
    switch self {
    case .appearing: "#7cb342"
    case .appeared: "#2e7d32"
    case .disappearing: "#ef6c00"
    case .disappeared: "#c62828"
    case .containment: "#1565c0"
    case .presentation: "#00838f"
    case .transition: "#6a1b9a"
    case .problem: "#000000"
    case .lifecycle: "#9e9e9e"
    }
  }

  /// The mark centred on (`x`, `y`), with `title` as its tooltip.
  func svg(x: Double, y: Double, title: String) -> String {
    let tooltip = "<title>\(title)</title>"
    switch self {
    case .appearing, .appeared, .disappearing, .disappeared:
      return "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"5\" fill=\"\(colour)\">\(tooltip)</circle>"
    case .lifecycle:
      return "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"3\" fill=\"\(colour)\">\(tooltip)</circle>"
    case .containment:
      return "<rect x=\"\(x - 4)\" y=\"\(y - 4)\" width=\"8\" height=\"8\" fill=\"\(colour)\">\(tooltip)</rect>"
    case .presentation:
      let points = "\(x),\(y - 5) \(x + 5),\(y + 4) \(x - 5),\(y + 4)"
      return "<polygon points=\"\(points)\" fill=\"\(colour)\">\(tooltip)</polygon>"
    case .transition:
      let points = "\(x),\(y - 6) \(x + 5),\(y) \(x),\(y + 6) \(x - 5),\(y)"
      return "<polygon points=\"\(points)\" fill=\"\(colour)\">\(tooltip)</polygon>"
    case .problem:
      let path = "M\(x - 4),\(y - 4) L\(x + 4),\(y + 4) M\(x - 4),\(y + 4) L\(x + 4),\(y - 4)"
      return "<path d=\"\(path)\" stroke=\"\(colour)\" stroke-width=\"2\">\(tooltip)</path>"
    }
  }
}
