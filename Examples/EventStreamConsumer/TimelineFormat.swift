import Containment

/// How the consumer prints each event.
enum TimelineFormat {
  case text, json

  func line(for event: LifecycleEvent) -> String {
    switch self {
    case .text:
      let time = Self.seconds(event.timestamp)
      let tx = event.transaction.map { "\($0)" } ?? "-"
      return
        "\(time)  \(Self.pad(event.path, 18)) \(Self.pad(event.kind.name, 32)) \(Self.pad(tx, 6)) \(Self.detail(event.kind))"
    case .json:
      var fields: [(String, String)] = [
        ("t", String(Self.inSeconds(event.timestamp))),
        ("seq", String(event.sequenceNumber)),
        ("controller", Self.quote(event.controller.description)),
        ("name", Self.quote(event.name)),
        ("path", Self.quote(event.path)),
        ("event", Self.quote(event.kind.name)),
        ("tx", event.transaction.map { Self.quote($0.description) } ?? "null"),
      ]
      let detail = Self.detail(event.kind)
      if !detail.isEmpty { fields.append(("detail", Self.quote(detail))) }
      return "{" + fields.map { "\(Self.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
  }

  static func detail(_ kind: LifecycleEvent.Kind) -> String {
    switch kind {
    case .subscribed(let state, let parent): "state=\(state) parent=\(parent.map { "\($0)" } ?? "nil")"
    case .willMove(let parent), .didMove(let parent): "parent=\(parent.map { "\($0)" } ?? "nil")"
    case .childAdded(let id): "child=\(id)"
    case .childRemoved(let id, let reason): "child=\(id) reason=\(reason)"
    case .presented(let id, let style): "presented=\(id) style=\(style)"
    case .dismissed(let id, let style, let reason): "presented=\(id) style=\(style) reason=\(reason)"
    case .transitionBegan(let from, let to, let options):
      "from=\(from.map { "\($0)" } ?? "nil") to=\(to.map { "\($0)" } ?? "nil")\(options.isEmpty ? "" : " options=\(options)")"
    case .transitionEnded(_, _, let outcome): "outcome=\(outcome)"
    case .batchCommitted(let disappearing, let appearing): "disappearing=\(disappearing) appearing=\(appearing)"
    case .unbalancedAppearanceTransition(let reason): "\(reason)"
    case .callIgnored(let reason): "\(reason)"
    case .eventsLost(let count): "lost=\(count)"
    case .viewWillAppear(let animated), .viewIsAppearing(let animated), .viewDidAppear(let animated),
      .viewWillDisappear(let animated), .viewDidDisappear(let animated):
      animated ? "animated" : ""
    case .traitCollectionDidChange(let traits): "\(traits)"
    case .hookTimedOut(let hook, let deadline): "hook=\(hook) deadline=\(deadline)"
    case .hookSkipped(let hook), .hookAbandoned(let hook): "hook=\(hook)"
    case .hookStalled(let hook, let after): "hook=\(hook) after=\(after)"
    case .viewDidLoad, .viewDidTearDown, .lagged, .terminated: ""
    }
  }

  /// `duration` in seconds, as a number.
  static func inSeconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// `duration` as the text timeline shows it: "1.034s".
  static func seconds(_ duration: Duration) -> String {
    let millis = Int((inSeconds(duration) * 1000).rounded())
    let whole = millis / 1000
    let fraction = millis % 1000
    return "\(whole).\(String(repeating: "0", count: 3 - String(fraction).count))\(fraction)s"
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
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
