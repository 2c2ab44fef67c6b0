import Containment

/// The checks of one burst that need no replay, from what the concurrent
/// fixture did: the invariants at the quiescent point, every controller's
/// hook grammar, and the transactions its events carry.
///
/// Keeps each controller's grammar from one burst to the next.
struct BurstChecks: Sendable {
  private var grammars: [HookGrammar]
  private let naming: ControllerNaming

  /// Checks starting from `controllers` as they are now (a quiescent point).
  init(controllers: [any ViewController], naming: ControllerNaming) {
    grammars = controllers.map(HookGrammar.init)
    self.naming = naming
  }

  /// What is wrong with one burst.
  ///
  /// `segments` are the controllers' events (nil: left half way through an
  /// appearance transition); every transaction they carry must have been
  /// created between `start` and `end` (ids taken before the burst and after
  /// its quiescent point).
  mutating func check(
    _ segments: [[LifecycleEvent]?], controllers: [any ViewController], window: Window,
    start: TransactionID?, end: TransactionID?, lostEvents: Int
  ) -> [CheckFinding] {
    var findings: [CheckFinding] = []
    if lostEvents > 0 {
      findings.append(CheckFinding(.transaction, "the checker's recorders lost \(lostEvents) events"))
    }
    for (index, segment) in segments.enumerated() where segment == nil {
      findings.append(
        CheckFinding(
          .hookOrder,
          "\(naming.names[index]) is \(controllers[index].appearanceState) at a quiescent point: a will-hook without its did-hook (A3)"
        ))
    }
    findings += invariants(controllers: controllers, window: window)
    for (index, segment) in segments.enumerated() {
      guard let segment else { continue }
      if let problem = grammar(index, segment, controller: controllers[index]) {
        findings.append(CheckFinding(.hookOrder, problem))
      }
      if let problem = transactions(index, segment, start: start, end: end) {
        findings.append(CheckFinding(.transaction, problem))
      }
    }
    return findings
  }

  /// §2 at a quiescent point, over the window's tree and the subtree of
  /// every watched controller outside it (a check covers a whole subtree).
  private func invariants(controllers: [any ViewController], window: Window) -> [CheckFinding] {
    var messages: [String] = []
    for root in FixtureRoots.of(window: window, controllers: controllers) {
      for violation in root.checkInvariants(quiescent: true) {
        let message = "\(naming.name(violation.controller)): \(naming.normalize(violation.message))"
        if !messages.contains(message) { messages.append(message) }
      }
    }
    return messages.map { CheckFinding(.invariant, $0) }
  }

  /// Feeds the segment's hooks to the controller's grammar, then checks it at rest.
  private mutating func grammar(_ index: Int, _ segment: [LifecycleEvent], controller: any ViewController) -> String? {
    let name = naming.names[index]
    for (position, event) in segment.enumerated() where HookGrammar.isHook(event.kind) {
      if let problem = grammars[index].accept(event.kind, naming: naming) {
        let context = segment[max(0, position - 6)...position].map { naming.describe($0.kind) }
        return "\(name): \(problem); its hooks up to there: \(context.joined(separator: ", "))"
      }
    }
    return grammars[index].settle(controller, naming: naming).map { "\(name): \($0)" }
  }

  /// Every hook and container event carries a transaction of this burst, and
  /// no two transactions interleave on the controller: neither among the
  /// hooks delivered to it nor among the events of its own transactions as a
  /// container (R1).
  private func transactions(_ index: Int, _ segment: [LifecycleEvent], start: TransactionID?, end: TransactionID?)
    -> String?
  {
    let name = naming.names[index]
    for isContainer in [false, true] {
      let lane = segment.filter {
        isContainer ? HookGrammar.isContainerEvent($0.kind) : HookGrammar.isHook($0.kind)
      }
      var finished: Set<TransactionID> = []
      var current: TransactionID?
      for (position, event) in lane.enumerated() {
        guard let id = event.transaction else {
          return "\(name).\(naming.describe(event.kind)) happened outside any transaction (R1, E3)"
        }
        if let start, id <= start {
          return "\(name).\(naming.describe(event.kind)) carries a transaction created before the burst began (E3)"
        }
        if let end, id >= end {
          return "\(name).\(naming.describe(event.kind)) carries a transaction created after the burst ended (E3)"
        }
        guard id != current else { continue }
        if finished.contains(id) {
          let around = lane[max(0, position - 6)...position].map { naming.describe($0.kind) }
          return
            "\(name): the \(isContainer ? "container events" : "hooks") of one transaction are interleaved with another's (R1): \(around.joined(separator: ", "))"
        }
        if let current { finished.insert(current) }
        current = id
      }
    }
    return nil
  }
}
