import Containment

/// The names a check uses for one fixture's controllers: their position in
/// ``CheckableContainer/controllers`` links a controller of the concurrent
/// fixture to its twin in the replay, so events and errors are compared by
/// name, never by the process-unique ids they carry.
package struct ControllerNaming: Sendable {
  /// Per watched controller: its name, made unique by its position if needed.
  let names: [String]
  /// Per watched controller: its id.
  let ids: [ControllerID]
  private let indexByID: [ControllerID: Int]

  /// Stands for every controller that is not watched, in translated events.
  private static let unwatched = ControllerNode(name: "?").id

  init(_ controllers: [any ViewController]) {
    var seen: [String: Int] = [:]
    for controller in controllers { seen[controller.node.name, default: 0] += 1 }
    names = controllers.enumerated().map { index, controller in
      let name = controller.node.name
      return seen[name, default: 0] > 1 ? "\(name)#\(index)" : name
    }
    ids = controllers.map(\.node.id)
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

  /// `kind` with each controller replaced by the one at the same position
  /// in `target` (the unwatched ones by one placeholder), and an interrupted
  /// transition read as a completed one.
  func translate(_ kind: LifecycleEvent.Kind, into target: ControllerNaming) -> LifecycleEvent.Kind {
    func map(_ id: ControllerID) -> ControllerID { indexByID[id].map { target.ids[$0] } ?? Self.unwatched }
    func map(_ id: ControllerID?) -> ControllerID? { id.map(map) }
    switch kind {
    case .willMove(let parent): return .willMove(toParent: map(parent))
    case .didMove(let parent): return .didMove(toParent: map(parent))
    case .childAdded(let child): return .childAdded(map(child))
    case .childRemoved(let child, let reason): return .childRemoved(map(child), reason: reason)
    case .presented(let presented, let style): return .presented(map(presented), style: style)
    case .dismissed(let presented, let style, let reason):
      return .dismissed(map(presented), style: style, reason: reason)
    case .transitionBegan(let from, let to, let options):
      return .transitionBegan(from: map(from), to: map(to), options: options)
    case .transitionEnded(let from, let to, let outcome):
      return .transitionEnded(from: map(from), to: map(to), outcome: outcome == .interrupted ? .completed : outcome)
    case .batchCommitted(let disappearing, let appearing):
      return .batchCommitted(disappearing: disappearing.map(map), appearing: appearing.map(map))
    case .subscribed(let state, let parent): return .subscribed(state: state, parent: map(parent))
    default: return kind
    }
  }

  /// An event's kind with controllers named, and an interrupted transition
  /// read as a completed one (cancellation cuts an animation short, the
  /// hooks are the same: T4).
  func describe(_ kind: LifecycleEvent.Kind) -> String {
    if case .transitionEnded(let from, let to, .interrupted) = kind {
      return Self.describe(.transitionEnded(from: from, to: to, outcome: .completed), naming: name)
    }
    return Self.describe(kind, naming: name)
  }

  /// An event's kind with each controller it carries named by `name` (which
  /// is given nil for an absent parent), for messages.
  package static func describe(_ kind: LifecycleEvent.Kind, naming name: (ControllerID?) -> String) -> String {
    switch kind {
    case .willMove(let parent): "willMove(\(name(parent)))"
    case .didMove(let parent): "didMove(\(name(parent)))"
    case .childAdded(let child): "childAdded(\(name(child)))"
    case .childRemoved(let child, let reason): "childRemoved(\(name(child)), \(reason))"
    case .presented(let presented, let style): "presented(\(name(presented)), \(style))"
    case .dismissed(let presented, let style, let reason): "dismissed(\(name(presented)), \(style), \(reason))"
    case .transitionBegan(let from, let to, let options): "transitionBegan(\(name(from))->\(name(to)), \(options))"
    case .transitionEnded(let from, let to, let outcome): "transitionEnded(\(name(from))->\(name(to)), \(outcome))"
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
