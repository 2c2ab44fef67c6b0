import Containment

/// The names a check uses for one fixture's controllers: their position in
/// ``CheckableContainer/controllers`` links a controller of the concurrent
/// fixture to its twin in the replay, so events and errors are compared by
/// name, never by the process-unique ids they carry.
struct ControllerNaming: Sendable {
  /// Per watched controller: its name, made unique by its position if needed.
  let names: [String]
  private let indexByID: [ControllerID: Int]

  init(_ controllers: [any ViewController]) {
    var seen: [String: Int] = [:]
    for controller in controllers { seen[controller.node.name, default: 0] += 1 }
    names = controllers.enumerated().map { index, controller in
      let name = controller.node.name
      return seen[name, default: 0] > 1 ? "\(name)#\(index)" : name
    }
    var indexByID: [ControllerID: Int] = [:]
    for (index, controller) in controllers.enumerated() { indexByID[controller.node.id] = index }
    self.indexByID = indexByID
  }

  func index(of id: ControllerID) -> Int? { indexByID[id] }

  /// The name of a watched controller, "?" for any other, "nil" for none.
  func name(_ id: ControllerID?) -> String {
    guard let id else { return "nil" }
    return indexByID[id].map { names[$0] } ?? "?"
  }

  func name(_ controller: (any ViewController)?) -> String { name(controller?.node.id) }

  /// An event's kind with controllers named, and an interrupted transition
  /// read as a completed one (cancellation cuts an animation short, the
  /// hooks are the same: T4).
  func describe(_ kind: LifecycleEvent.Kind) -> String {
    switch kind {
    case .willMove(let parent): "willMove(\(name(parent)))"
    case .didMove(let parent): "didMove(\(name(parent)))"
    case .childAdded(let child): "childAdded(\(name(child)))"
    case .childRemoved(let child, let reason): "childRemoved(\(name(child)), \(reason))"
    case .presented(let presented, let style): "presented(\(name(presented)), \(style))"
    case .dismissed(let presented, let style, let reason): "dismissed(\(name(presented)), \(style), \(reason))"
    case .transitionBegan(let from, let to, let options): "transitionBegan(\(name(from))->\(name(to)), \(options))"
    case .transitionEnded(let from, let to, let outcome):
      "transitionEnded(\(name(from))->\(name(to)), \(outcome == .interrupted ? .completed : outcome))"
    case .batchCommitted(let disappearing, let appearing):
      "batchCommitted(-[\(disappearing.map(name).joined(separator: ","))] +[\(appearing.map(name).joined(separator: ","))])"
    case .viewWillAppear(let animated): "viewWillAppear\(animated ? "(animated)" : "")"
    case .viewIsAppearing(let animated): "viewIsAppearing\(animated ? "(animated)" : "")"
    case .viewDidAppear(let animated): "viewDidAppear\(animated ? "(animated)" : "")"
    case .viewWillDisappear(let animated): "viewWillDisappear\(animated ? "(animated)" : "")"
    case .viewDidDisappear(let animated): "viewDidDisappear\(animated ? "(animated)" : "")"
    case .unbalancedAppearanceTransition(let reason): "unbalanced(\(reason))"
    case .callIgnored(let call): "callIgnored(\(call))"
    case .subscribed(let state, let parent): "subscribed(\(state), \(name(parent)))"
    default: kind.name
    }
  }

  /// `text` with every controller id (`#12`) replaced by its name and every
  /// transaction id (`tx34`) by `tx`: an error's description, comparable
  /// across fixtures.
  func normalize(_ text: String) -> String {
    var result = ""
    var characters = text[...]
    while let first = characters.first {
      if first == "#" || (first == "t" && characters.hasPrefix("tx")) {
        let prefix = first == "#" ? 1 : 2
        let digits = characters.dropFirst(prefix).prefix(while: \.isNumber)
        if !digits.isEmpty, let raw = UInt64(digits) {
          if first == "#" {
            result += indexByRaw(raw).map { names[$0] } ?? "?"
          } else {
            result += "tx"
          }
          characters = characters.dropFirst(prefix + digits.count)
          continue
        }
      }
      result.append(first)
      characters = characters.dropFirst()
    }
    return result
  }

  private func indexByRaw(_ raw: UInt64) -> Int? {
    indexByID.first { $0.key.rawValue == raw }?.value
  }
}
