import Containment
import ContainmentTestKit

/// The checks of a run, one epoch at a time: hook logs against streams, the
/// hook grammar, linearizability against the model, subscribers, watched
/// requests.
///
/// Between epochs they keep only what the next one needs: each controller's
/// grammar state and next sequence number, the model's state, each subscriber's
/// position.
struct Checks {
  /// The epoch being checked.
  private(set) var history: History
  /// Findings of the epoch checked last (`takeFindings` drains them).
  private(set) var findings: [Finding] = []
  /// What the report counts of the checks.
  var counts = Counts()

  struct Counts: Sendable {
    var replayedTransactions = 0
    /// Replayed container transactions by what they were: split layouts, trait
    /// changes, interactive pops, eventless reorders placed by time.
    var replayedContainers = ReplayedContainers()
    var recordedEvents = 0
    var subscriberEvents = 0
    var lostEvents = 0
    var lostMarkers = 0
    var laggedDisconnects = 0
  }

  struct ReplayedContainers: Sendable {
    var splitLayouts = 0
    var traitChanges = 0
    var interactivePops = 0
    var eventless = 0
  }

  // What the next epoch needs.
  private var grammars: [HookGrammar]
  /// Controllers whose grammar broke: reported once, not checked further.
  private var grammarBroken: Set<Int> = []
  private var nextSequence: [Int]
  /// The model's state at the end of the last epoch replayed.
  private var model: Model
  /// Per subscriber: where its check stands (SubscriberChecks.swift).
  var subscribers: [SubscriberCheck] = []

  /// Checks starting from `history`'s initial trees (a quiescent point).
  init(history: History) {
    self.history = history
    grammars = Array(repeating: HookGrammar(), count: history.names.count)
    for index in history.leaveSilently { grammars[index].leavesSilently = true }
    nextSequence = Array(repeating: 0, count: history.names.count)
    model = history.initial
  }

  /// The epoch's trait flips by the root they flip (`traitFlip(causing:at:)`).
  private var traitFlips: [Int: [(start: Duration, end: Duration, id: Int)]] = [:]

  /// Checks one epoch: the one after the last epoch checked.
  mutating func check(_ epoch: History) {
    history = epoch
    traitFlips = [:]
    for record in epoch.records where record.operation.kind == .traitFlip {
      guard let root = record.operation.targets.first else { continue }
      traitFlips[root, default: []].append((record.start, record.end, record.operation.id))
    }
    counts.recordedEvents += epoch.events.reduce(0) { $0 + $1.count }
    checkRecorders()
    checkHookLogs()
    checkGrammar()
    checkStrangers()
    checkLinearizability()
    checkScopes()
  }

  mutating func takeFindings() -> [Finding] {
    defer { findings = [] }
    return findings
  }

  mutating func fail(_ category: Finding.Category, _ message: String, operations: [Int] = []) {
    findings.append(Finding(category: category, message: message, operations: operations))
  }

  func describe(_ event: LifecycleEvent) -> String {
    "\(history.name(event.controller)).\(describe(event.kind))\(event.transaction.map { " \($0)" } ?? "")"
  }

  func describe(_ kind: LifecycleEvent.Kind) -> String {
    ControllerNaming.describe(kind, naming: { history.name($0) })
  }

  func describe(_ step: ModelStep) -> String {
    var text = step.description
    for index in (0..<history.names.count).reversed() { text = text.replacing("#\(index)", with: history.names[index]) }
    return text
  }

  // MARK: Recorders and hook logs

  private mutating func checkRecorders() {
    for marker in history.recorderMarkers { fail(.subscriber, "a recorder (unbounded buffer) saw \(marker)") }
    for (index, events) in history.events.enumerated() {
      for (position, event) in events.enumerated() where event.sequenceNumber != nextSequence[index] + position {
        fail(
          .subscriber,
          "\(history.name(index)): recorder event \(nextSequence[index] + position) carries sequence number \(event.sequenceNumber)"
        )
        break
      }
      if let last = events.last { nextSequence[index] = last.sequenceNumber + 1 }
    }
  }

  /// Each controller's hooks, as it recorded them, equal the hook events of its stream (E3).
  private mutating func checkHookLogs() {
    for (index, events) in history.events.enumerated() {
      let streamed = events.map(\.kind).filter(\.isHook)
      let logged = history.hookLogs[index]
      guard streamed != logged else { continue }
      let at =
        zip(streamed, logged).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(streamed.count, logged.count)
      fail(
        .hookLog,
        "\(history.name(index)): hook log and event stream differ at hook \(at): stream has \(streamed.count) hooks (\(streamed.dropFirst(at).prefix(3).map(describe))), log has \(logged.count) (\(logged.dropFirst(at).prefix(3).map(describe)))"
      )
    }
  }

  // MARK: Grammar

  /// Every controller's hook sequence is well formed: one `viewDidLoad`, first;
  /// `willMove(P)` only while detached, `didMove(P)` only after `willMove(P)`;
  /// appearance hooks follow the state machine of §3 (no did without its
  /// will, `viewIsAppearing` once per appearance, between will and did).
  private mutating func checkGrammar() {
    for (index, events) in history.events.enumerated() where !grammarBroken.contains(index) {
      for (position, event) in events.enumerated() where event.kind.isHook {
        if let problem = grammars[index].accept(event.kind, name: { history.name($0) }) {
          grammarBroken.insert(index)
          let context = events[max(0, position - 5)...position].map(describe).joined(separator: ", ")
          let after = events[(position + 1)..<min(events.count, position + 4)].map(describe).joined(separator: ", ")
          let nearby = events[max(0, position - 5)..<min(events.count, position + 6)].compactMap(\.transaction)
          fail(
            .grammar,
            "\(history.name(index)): \(problem) at event \(position); events up to it: \(context); then: \(after)",
            operations: operations(of: nearby))
          break
        }
      }
    }
  }

  private func operations(of transactions: [TransactionID]) -> [Int] {
    Array(Set(transactions.compactMap { history.registered[$0]?.operation })).sorted()
  }

  /// Strangers are never attached: after setup they may only report unbalanced calls made from outside (A4).
  private mutating func checkStrangers() {
    for stranger in history.strangers {
      for event in history.events[stranger]
      where event.timestamp >= history.replayStart && event.timestamp < history.replayEnd {
        if case .unbalancedAppearanceTransition(.endWithoutBegin) = event.kind, event.transaction == nil { continue }
        fail(.unexplained, "stranger \(history.name(stranger)) got \(describe(event))")
        break
      }
    }
  }

  // MARK: Linearizability (R4)

  private struct Observed {
    var id: TransactionID
    /// Per controller: indices into that controller's workload events.
    var ranges: [Int: Range<Int>] = [:]
    var first: Duration = .seconds(1 << 40)
    var last: Duration = .zero
    var steps: [ModelStep] = []
    var operation: Int?
  }

  /// Replays the transactions of the workload on the model, in an order
  /// consistent with every controller's stream, and demands that each one
  /// produce exactly the events it produced in the runtime; then compares
  /// the final model with the runtime's final trees.
  private mutating func checkLinearizability() {
    // Each controller has two lanes: the events of its own container
    // transactions (R1: they never interleave), and the hooks delivered
    // to it by its parent's or an ancestor's transactions (R4).
    // Trait changes (window transactions) are replayed only where they matter,
    // on the split columns (ContainerKinds.swift); elsewhere they change nothing
    // the model holds and are left out.
    let replayed = (0..<history.names.count).filter { !history.strangers.contains($0) }
    let splitColumns = Set(history.initial.splitPrimary + history.initial.splitSecondary)
    var streams: [Int: [LifecycleEvent]] = [:]
    var observed: [TransactionID: Observed] = [:]
    var problems = 0
    var dismissCalls = history.dismissCalls
    for index in replayed {
      let all = history.events[index].filter {
        guard $0.timestamp >= history.replayStart, $0.timestamp < history.replayEnd else { return false }
        if case .traitCollectionDidChange = $0.kind { return splitColumns.contains(index) }
        if $0.transaction == nil, $0.kind == .callIgnored(.nothingToDismiss),
          let call = dismissCalls.firstIndex(where: { [event = $0] in
            $0.controller == index && $0.start <= event.timestamp && event.timestamp <= $0.end
          })
        {
          dismissCalls.remove(at: call)  // A dismissal whose presenter stopped presenting before it looked.
          return false
        }
        return true
      }
      for lane in [index * 2, index * 2 + 1] {
        streams[lane] = all.filter { ($0.kind.isContainerEvent ? 1 : 0) == lane % 2 }
      }
    }
    for (lane, events) in streams.sorted(by: { $0.key < $1.key }) {
      var seen: [TransactionID: Int] = [:]
      let outside = events.filter { $0.transaction == nil }
      if let first = outside.first {
        fail(
          .unexplained,
          "\(laneName(lane)): \(outside.count) event(s) happened outside any transaction, first \(describe(first))")
        problems += outside.count
      }
      for (position, event) in events.enumerated() {
        guard let id = event.transaction else { continue }
        var entry = observed[id] ?? Observed(id: id)
        if let last = seen[id], last != position - 1 {
          // The transaction's events in this lane are interleaved with another's.
          if problems < 20 {
            let others = Set(events[(last + 1)..<position].compactMap(\.transaction))
            let between = events[(last + 1)..<position].map(describe).joined(separator: ", ")
            fail(
              .atomicity,
              "\(laneName(lane)): events of \(id) [\(opSummary(id))] are interleaved with \(between) [\(others.map { "\($0): \(opSummary($0))" }.joined(separator: "; "))]; the lane reads: \(events[max(0, last - 3)...min(events.count - 1, position + 1)].map(describe).joined(separator: ", "))",
              operations: operations(of: [id] + Array(others)))
          }
          problems += 1
        }
        seen[id] = position
        entry.ranges[lane] = entry.ranges[lane].map { $0.lowerBound..<(position + 1) } ?? position..<(position + 1)
        entry.first = min(entry.first, event.timestamp)
        entry.last = max(entry.last, event.timestamp)
        observed[id] = entry
      }
    }
    // What each transaction was meant to do.
    var unidentified = history.unidentified
    for (id, entry) in observed.sorted(by: { $0.key < $1.key }) {
      var entry = entry
      if let registered = history.registered[id] {
        entry.steps = registered.steps.map { resolve($0, in: entry, streams: streams) }
        entry.operation = registered.operation
      } else if let detach = recogniseMoveRemoval(entry, streams: streams) {
        entry.steps = [detach]
      } else if let split = recogniseSplit(entry, streams: streams) {
        entry.steps = [split]
        entry.operation = traitFlip(causing: split, at: entry.first)
      } else if let position = unidentified.firstIndex(where: { request in
        request.start <= entry.first && entry.last <= request.end
          && entry.ranges[request.first * 2].map {
            streams[request.first * 2, default: []][$0].first?.kind == .viewWillDisappear(animated: true)
          } == true
      }) {
        entry.steps = unidentified[position].steps
        entry.operation = unidentified[position].operation
        unidentified.remove(at: position)
      } else {
        if problems < 40 {
          let events = entry.ranges.sorted { $0.key < $1.key }.flatMap {
            streams[$0.key, default: []][$0.value].map(describe)
          }
          fail(.unexplained, "transaction \(id) is not one the workload asked for: \(events.joined(separator: ", "))")
        }
        problems += 1
      }
      observed[id] = entry
    }
    var silent: [Silent] = []
    for (id, registered) in history.registered where observed[id] == nil {
      let watched = history.watched.first { $0.0 == id }
      if let watched, watched.1 != true { continue }
      if let window = registered.window, let key = registered.steps.compactMap(\.containerKey).first {
        // An eventless reorder (setStack, setTabs): replayed at its place in time.
        silent.append(
          Silent(id: id, steps: registered.steps, key: key, window: window, operation: registered.operation))
        continue
      }
      if registered.steps.allSatisfy(\.mayLeaveNoEvent) { continue }  // popTo the top, re-selecting the selected tab...
      fail(
        .linearizability, "request \(id) [\(opSummary(id))] completed but left no events",
        operations: [registered.operation])
      problems += 1
    }
    guard problems == 0 else {
      fail(
        .linearizability,
        "replay skipped: \(problems) transaction(s) interleave with others or are unexplained, so no sequential order can produce the streams"
      )
      resynchronize()
      return
    }
    let sorted = silent.sorted { ($0.window.upperBound, $0.id) < ($1.window.upperBound, $1.id) }
    guard let replayed = replay(observed: observed, streams: streams, silent: sorted), compareTrees(with: replayed)
    else {
      resynchronize()
      return
    }
    model = replayed
  }

  /// After a failed epoch the next one starts from the runtime's trees at the
  /// epoch's end, keeping the model's appearance bookkeeping (nesting levels,
  /// animation flags) where the states agree: later findings are then their own.
  private mutating func resynchronize() {
    var next = history.final
    for index in next.nodes.indices where next.nodes[index].appearance.state == model.nodes[index].appearance.state {
      next.nodes[index].appearance = model.nodes[index].appearance
    }
    next.emitted = [:]
    model = next
  }

  /// A request that succeeded without an event while its operation held its
  /// container's gate exclusively.
  private struct Silent {
    var id: TransactionID
    var steps: [ModelStep]
    var key: String
    var window: ClosedRange<Duration>
    var operation: Int
  }

  private func laneName(_ lane: Int) -> String {
    lane % 2 == 1 ? "\(history.name(lane / 2)) as a container" : "\(history.name(lane / 2))'s hooks"
  }

  private func opSummary(_ id: TransactionID) -> String {
    guard let registered = history.registered[id] else { return "move removal or unknown" }
    let summary =
      history.records.first { $0.operation.id == registered.operation }?.summary ?? "op \(registered.operation)"
    return "\(summary) as \(registered.steps.map { describe($0) }.joined(separator: "; "))"
  }

  /// A `remove` whose parent was unknown when it was asked: the parent that
  /// reported the removal.
  ///
  /// A split layout: the size class it read.
  private func resolve(_ step: ModelStep, in entry: Observed, streams: [Int: [LifecycleEvent]]) -> ModelStep {
    if case .split(let tree, let showing, nil) = step {
      return .split(tree: tree, showing: showing, compact: isCompact(tree: tree, at: entry.first))
    }
    guard case .remove(let parent, let child) = step, parent < 0 else { return step }
    for (lane, range) in entry.ranges where lane % 2 == 1 {
      for event in streams[lane, default: []][range] {
        if case .childRemoved(let id, _) = event.kind, id == history.ids[child] {
          return .remove(parent: lane / 2, child: child)
        }
      }
    }
    return step
  }

  /// The removal half of a move has no handle: it is the transaction in which
  /// a container reports only `childRemoved(C)` and C starts with `willMove(nil)`.
  private func recogniseMoveRemoval(_ entry: Observed, streams: [Int: [LifecycleEvent]]) -> ModelStep? {
    for (lane, range) in entry.ranges where lane % 2 == 1 {
      let events = streams[lane, default: []][range]
      guard events.count == 1, let only = events.first, case .childRemoved(let childID, .moved) = only.kind,
        let child = history.indexByID[childID], let childRange = entry.ranges[child * 2],
        streams[child * 2, default: []][childRange].first?.kind == .willMove(toParent: nil)
      else { continue }
      return .detachForMove(parent: lane / 2, child: child)
    }
    return nil
  }

  /// The size class tree `tree`'s window had at `time`.
  ///
  /// A window transaction sets it first, then tells the tree parent first, the
  /// root before anyone; it excludes every other transaction of the tree except
  /// those it starts itself (the split's layout, from its
  /// `traitCollectionDidChange`). So a layout whose first event follows the
  /// root's `traitCollectionDidChange` read that change, and one that precedes
  /// it did not.
  private func isCompact(tree: Int, at time: Duration) -> Bool {
    var compact = history.initial.compact[tree]
    for event in history.events[history.roots[tree]]
    where event.timestamp >= history.replayStart && event.timestamp < time {
      if case .traitCollectionDidChange(let traits) = event.kind { compact = traits.horizontalSizeClass == .compact }
    }
    return compact
  }

  /// The split's transactions have no handle: a window's trait change (only
  /// `traitCollectionDidChange` on the split columns of one tree) or a layout
  /// it started (only appearance hooks on them).
  private func recogniseSplit(_ entry: Observed, streams: [Int: [LifecycleEvent]]) -> ModelStep? {
    let initial = history.initial
    guard
      let tree = initial.splitPrimary.indices.first(where: { tree in
        entry.ranges.keys.allSatisfy {
          $0 % 2 == 0 && ($0 / 2 == initial.splitPrimary[tree] || $0 / 2 == initial.splitSecondary[tree])
        }
      }), !entry.ranges.isEmpty
    else { return nil }
    let kinds = entry.ranges.flatMap { streams[$0.key, default: []][$0.value].map(\.kind) }
    var traits: [TraitCollection] = []
    for kind in kinds { if case .traitCollectionDidChange(let value) = kind { traits.append(value) } }
    if traits.count == kinds.count, let last = traits.last {
      return .traits(tree: tree, compact: last.horizontalSizeClass == .compact)
    }
    if traits.isEmpty { return .split(tree: tree, showing: nil, compact: isCompact(tree: tree, at: entry.first)) }
    return nil
  }

  /// The trait flip operation behind a recognised split transaction (for the
  /// reducer): the one running at its time, or the tree's latest before it.
  private func traitFlip(causing step: ModelStep, at time: Duration) -> Int? {
    let tree: Int
    switch step {
    case .traits(let t, _), .split(let t, _, _): tree = t
    default: return nil
    }
    let flips = (traitFlips[history.roots[tree]] ?? []).filter { $0.start <= time }
    return (flips.first { $0.end >= time } ?? flips.max { $0.start < $1.start })?.id
  }

  /// What an observed transaction was: its operation, or the steps recognised from its events.
  private func summary(_ entry: Observed) -> String {
    if history.registered[entry.id] != nil { return opSummary(entry.id) }
    return "no handle, recognised as \(entry.steps.map { describe($0) }.joined(separator: "; "))"
  }

  /// The model after replaying the epoch's transactions, or nil (with a finding) if no order explains them.
  private mutating func replay(observed: [TransactionID: Observed], streams: [Int: [LifecycleEvent]], silent: [Silent])
    -> Model?
  {
    var silent = silent
    var model = self.model
    var cursor: [Int: Int] = [:]
    var owner: [Int: [TransactionID]] = [:]  // per controller: transaction of each event
    // Replay runs only once every event belongs to a transaction (`problems == 0`).
    for (index, events) in streams { owner[index] = events.compactMap(\.transaction) }
    var remaining = observed.count
    var done: Set<TransactionID> = []
    while remaining > 0 {
      var candidates: [Observed] = []
      var seen: Set<TransactionID> = []
      for (index, events) in owner {
        let position = cursor[index, default: 0]
        guard position < events.count else { continue }
        let id = events[position]
        guard !done.contains(id), seen.insert(id).inserted, let entry = observed[id] else { continue }
        if entry.ranges.allSatisfy({ cursor[$0.key, default: 0] == $0.value.lowerBound }) { candidates.append(entry) }
      }
      candidates.sort { ($0.first, $0.id) < ($1.first, $1.id) }
      guard let earliest = candidates.first else {
        fail(
          .linearizability, "no transaction can go next: the streams order transactions in a cycle (\(remaining) left)")
        return nil
      }
      var chosen: (Observed, Model, [TransactionID])?
      var firstMismatch: String?
      candidates: for candidate in candidates where candidate.first <= earliest.last + .milliseconds(2) {
        var attempt = model
        // Eventless requests on the same container that were over before this one began.
        let keys = Set(candidate.steps.compactMap(\.containerKey))
        var placed: [TransactionID] = []
        for request in silent where keys.contains(request.key) && request.window.upperBound < candidate.first {
          attempt.emitted = [:]
          if let problem = applySilently(request, to: &attempt) {
            if firstMismatch == nil {
              firstMismatch = "\(request.id) (\(opSummary(request.id))), before \(candidate.id): \(problem)"
            }
            continue candidates
          }
          placed.append(request.id)
        }
        attempt.emitted = [:]
        do {
          for step in candidate.steps { try attempt.apply(step) }
        } catch {
          if firstMismatch == nil { firstMismatch = "\(candidate.id) (\(summary(candidate))): model refuses: \(error)" }
          continue
        }
        if let difference = compare(attempt.emitted, candidate, streams: streams) {
          if firstMismatch == nil { firstMismatch = "\(candidate.id) (\(summary(candidate))): \(difference)" }
          continue
        }
        chosen = (candidate, attempt, placed)
        break
      }
      guard let (entry, next, placed) = chosen else {
        let involved = candidates.prefix(4).compactMap(\.operation)
        fail(
          .linearizability,
          "after \(counts.replayedTransactions) transactions no sequential order explains the next one: \(firstMismatch ?? "?")",
          operations: involved)
        return nil
      }
      model = next
      model.emitted = [:]
      silent.removeAll { placed.contains($0.id) }
      counts.replayedTransactions += placed.count
      counts.replayedContainers.eventless += placed.count
      for step in entry.steps {
        switch step {
        case .split: counts.replayedContainers.splitLayouts += 1
        case .traits: counts.replayedContainers.traitChanges += 1
        case .navigation(_, .interactivePop, _): counts.replayedContainers.interactivePops += 1
        default: break
        }
      }
      for (index, range) in entry.ranges { cursor[index] = range.upperBound }
      done.insert(entry.id)
      remaining -= 1
      counts.replayedTransactions += 1
    }
    for request in silent {
      if let problem = applySilently(request, to: &model) {
        fail(
          .linearizability, "\(request.id) (\(opSummary(request.id))), after every other request: \(problem)",
          operations: [request.operation])
        return nil
      }
      counts.replayedTransactions += 1
      counts.replayedContainers.eventless += 1
    }
    return model
  }

  /// The runtime's trees at the epoch's end (a quiescent point) equal the
  /// replay's; false (with findings) if they do not.
  private mutating func compareTrees(with model: Model) -> Bool {
    let before = findings.count
    let when = history.replayEnd
    for (index, node) in history.final.nodes.enumerated() where !history.strangers.contains(index) {
      let expected = model.nodes[index]
      var differences: [String] = []
      if node.parent != expected.parent {
        differences.append(
          "parent \(node.parent.map(history.name) ?? "nil") vs model \(expected.parent.map(history.name) ?? "nil")")
      }
      if node.children != expected.children {
        differences.append(
          "children \(node.children.map(history.name)) vs model \(expected.children.map(history.name))")
      }
      if node.installed != expected.installed {
        differences.append("view installed \(node.installed) vs model \(expected.installed)")
      }
      if node.appearance.state != expected.appearance.state {
        differences.append("state \(node.appearance.state) vs model \(expected.appearance.state)")
      }
      differences += node.presentation.differences(from: expected.presentation, name: history.name)
      if !differences.isEmpty {
        fail(
          .linearizability,
          "at \(format(when.seconds, 3))s: the tree differs from the sequential replay at \(history.name(index)): \(differences.joined(separator: "; "))"
        )
      }
    }
    let final = history.final
    if final.hopWindowRoots != model.hopWindowRoots {
      fail(
        .linearizability,
        "at \(format(when.seconds, 3))s: the hop windows' roots are \(final.hopWindowRoots.map { $0.map(history.name) ?? "nil" }), the sequential replay's \(model.hopWindowRoots.map { $0.map(history.name) ?? "nil" })"
      )
    }
    if final.presentationWindowRoots != model.presentationWindowRoots {
      fail(
        .linearizability,
        "at \(format(when.seconds, 3))s: the presentation windows' roots are \(final.presentationWindowRoots.map { $0.map(history.name) ?? "nil" }), the sequential replay's \(model.presentationWindowRoots.map { $0.map(history.name) ?? "nil" })"
      )
    }
    for tree in final.stacks.indices where final.stacks[tree] != model.stacks[tree] {
      fail(
        .linearizability,
        "at \(format(when.seconds, 3))s: navigation stack \(tree) is \(final.stacks[tree].map(history.name)), the sequential replay's \(model.stacks[tree].map(history.name))"
      )
    }
    for tree in final.compact.indices {
      if final.compact[tree] != model.compact[tree] {
        fail(
          .linearizability,
          "at \(format(when.seconds, 3))s: window \(tree) is \(final.compact[tree] ? "compact" : "regular"), the sequential replay's \(model.compact[tree] ? "compact" : "regular")"
        )
      }
      let describe = { (model: Model) in
        model.splitCollapsed[tree] ? "collapsed showing \(model.splitShown[tree])" : "expanded"
      }
      if final.splitCollapsed[tree] != model.splitCollapsed[tree]
        || (final.splitCollapsed[tree] && final.splitShown[tree] != model.splitShown[tree])
      {
        fail(
          .linearizability,
          "at \(format(when.seconds, 3))s: split \(tree) is \(describe(final)), the sequential replay's \(describe(model))"
        )
      }
    }
    for tree in final.tabList.indices
    where final.tabList[tree] != model.tabList[tree] || final.selectedTab[tree] != model.selectedTab[tree] {
      fail(
        .linearizability,
        "at \(format(when.seconds, 3))s: tabs \(tree) are \(final.tabList[tree].map(history.name)) selecting \(final.selectedTab[tree].map(history.name) ?? "nil"), the sequential replay's \(model.tabList[tree].map(history.name)) selecting \(model.selectedTab[tree].map(history.name) ?? "nil")"
      )
    }
    return findings.count == before
  }

  /// Applies an eventless request; what is wrong if the model refuses it or
  /// expects events of it.
  private func applySilently(_ request: Silent, to model: inout Model) -> String? {
    model.emitted = [:]
    do {
      for step in request.steps { try model.apply(step) }
    } catch {
      return "succeeded without an event, but the model refuses it: \(error)"
    }
    defer { model.emitted = [:] }
    guard model.emitted.values.allSatisfy(\.isEmpty) else {
      let expected = model.emitted.sorted { $0.key < $1.key }.map {
        "\(history.name($0.key)): \($0.value.map(describe).joined(separator: ", "))"
      }
      return "succeeded without an event, but the model expects [\(expected.joined(separator: "; "))]"
    }
    return nil
  }

  private func compare(_ emitted: [Int: [LifecycleEvent.Kind]], _ entry: Observed, streams: [Int: [LifecycleEvent]])
    -> String?
  {
    var lanes: [Int: [LifecycleEvent.Kind]] = [:]
    for (index, kinds) in emitted {
      for kind in kinds { lanes[index * 2 + (kind.isContainerEvent ? 1 : 0), default: []].append(kind) }
    }
    for lane in Set(lanes.keys).union(entry.ranges.keys).sorted() {
      let expected = lanes[lane] ?? []
      let actual = entry.ranges[lane].map { streams[lane, default: []][$0].map(\.kind) } ?? []
      if expected != actual {
        return
          "\(laneName(lane)): the model expects [\(expected.map(describe).joined(separator: ", "))] but the runtime did [\(actual.map(describe).joined(separator: ", "))]"
      }
    }
    return nil
  }
}

/// Identifies one emitted event across streams.
struct EventKey: Hashable {
  var controller: ControllerID
  var timestamp: Duration
  var kind: LifecycleEvent.Kind
  var transaction: TransactionID?
  init(_ event: LifecycleEvent) {
    controller = event.controller
    timestamp = event.timestamp
    kind = event.kind
    transaction = event.transaction
  }
}

/// The per-controller hook grammar (see `Checks.checkGrammar`).
struct HookGrammar {
  enum Link: Equatable {
    case detached
    case attaching(ControllerID)
    case attached(ControllerID)
    case leaving
  }
  var link = Link.detached
  var state = AppearanceState.disappeared
  var isAppearingSeen = false
  var loads = 0
  /// May be taken off screen without hooks (P4): it may then appear again while it reads `appeared`.
  var leavesSilently = false

  mutating func accept(_ kind: LifecycleEvent.Kind, name: (ControllerID) -> String) -> String? {
    func describe(_ link: Link) -> String {
      switch link {
      case .detached: "detached"
      case .attaching(let parent): "attaching to \(name(parent))"
      case .attached(let parent): "attached to \(name(parent))"
      case .leaving: "leaving its parent"
      }
    }
    switch kind {
    case .viewDidLoad:
      loads += 1
      return loads > 1 ? "a second viewDidLoad" : nil
    case .willMove(let parent?):
      guard link == .detached else { return "willMove(toParent: \(name(parent))) while \(describe(link))" }
      link = .attaching(parent)
    case .didMove(let parent?):
      guard link == .attaching(parent) || link == .attached(parent) else {
        return "didMove(toParent: \(name(parent))) while \(describe(link))"
      }
      link = .attached(parent)
    case .willMove(nil):
      guard link != .detached, link != .leaving else { return "willMove(toParent: nil) while \(describe(link))" }
      link = .leaving
    case .didMove(nil):
      guard link != .detached else { return "didMove(toParent: nil) while detached" }
      link = .detached
    case .viewWillAppear:
      guard loads == 1 else { return "viewWillAppear before viewDidLoad" }
      guard state == .disappeared || state == .disappearing || (leavesSilently && state == .appeared) else {
        return "viewWillAppear while \(state)"
      }
      state = .appearing
      isAppearingSeen = false
    case .viewIsAppearing:
      guard state == .appearing, !isAppearingSeen else {
        return "viewIsAppearing while \(state)\(isAppearingSeen ? " (second in one appearance)" : "")"
      }
      isAppearingSeen = true
    case .viewDidAppear:
      guard state == .appearing else { return "viewDidAppear without viewWillAppear (state \(state))" }
      guard isAppearingSeen else { return "viewDidAppear without viewIsAppearing" }
      state = .appeared
    case .viewWillDisappear:
      guard state == .appeared || state == .appearing else { return "viewWillDisappear while \(state)" }
      state = .disappearing
    case .viewDidDisappear:
      guard state == .disappearing else { return "viewDidDisappear without viewWillDisappear (state \(state))" }
      state = .disappeared
    default:
      break
    }
    return nil
  }
}
