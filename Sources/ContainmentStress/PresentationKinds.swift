import Containment
import ContainmentLocking
import ContainmentTestKit

/// Modal presentation (§10) beside everything else.
///
/// Two presentation windows, each with a root `PR` holding an installed leaf
/// `PK`, and a pool of controllers `PC` to present (`PC0` and `PC1` each hold
/// an installed leaf `PD`, which follows them by automatic forwarding; `PC5`
/// refuses interactive dismissals). A presentation *family* is everything
/// built on one base: a presentation window's root (`PR`, `PK` and every chain
/// presented from them, `PD`s included), or one navigation stack leaf `V`
/// (P7: it presents sheets from inside its stack while the main kinds push,
/// pop and move it between trees). Within a family, presents and interactive
/// dismissals run concurrently; a `dismiss` or a root change runs alone
/// (`gate`), because `dismiss` picks its presenter when it is called (P4)
/// and the model must route it the same way. Every other kind runs meanwhile.
struct PresentationTrees: Sendable {
  let windows: [Window]
  let roots: [Int]
  let kids: [Int]
  let presentables: [Int]
  /// `PD`: installed children of `PC0` and `PC1`.
  let inner: [Int]
  let modal: Int
  let windowGates: [StackGate]
  let leafGates = Locked<[Int: StackGate]>([:])

  init(environment: ContainmentEnvironment, make: (String) -> Int) {
    roots = (0..<2).map { make("PR\($0)") }
    kids = (0..<2).map { make("PK\($0)") }
    presentables = (0..<8).map { make("PC\($0)") }
    inner = (0..<2).map { make("PD\($0)") }
    modal = presentables[5]
    windows = (0..<2).map { _ in Window(environment: environment) }
    windowGates = (0..<2).map { _ in StackGate() }
  }

  var all: [Int] { roots + kids + presentables + inner }
}

/// The base a presentation family is built on.
enum PresentationFamily: Hashable {
  case window(Int)
  case leaf(Int)
}

/// The styles, by operation variant.
private let styles: [PresentationStyle] = [.pageSheet, .formSheet, .overFullScreen, .fullScreen]

extension World {
  func setUpPresentations() async throws {
    try await setUpPresentationTrees()
    for (window, root) in presentation.roots.enumerated() {
      try await presentation.windows[window].setRootViewController(self[root])
    }
  }

  /// The gates, the modal sheet, `PD` in `PC0` and `PC1`, `PK` in `PR`.
  private func setUpPresentationTrees() async throws {
    presentation.leafGates.withLock { gates in for leaf in stackLeaves { gates[leaf] = StackGate() } }
    self[presentation.modal].modal.withLock { $0 = true }
    for (position, container) in presentation.presentables.prefix(2).enumerated() {
      try await install(self[presentation.inner[position]], in: self[container])
    }
    for (window, root) in presentation.roots.enumerated() {
      try await install(self[presentation.kids[window]], in: self[root])
    }
  }

  /// The presentation trees as `model` has them: roots, then every chain, bottom first.
  func setUpPresentations(from model: Model) async throws {
    try await setUpPresentationTrees()
    for (window, root) in model.presentationWindowRoots.enumerated() {
      if let root { try await presentation.windows[window].setRootViewController(self[root]) }
    }
    var pending = model.nodes.indices.compactMap { index in
      model.nodes[index].presentation.presenting.map { (presented: index, presenter: $0) }
    }
    while !pending.isEmpty {
      let ready = pending.filter {
        model.nodes[$0.presenter].presentation.presenting == nil || self[$0.presenter].presentingViewController != nil
      }
      guard let next = ready.first else { break }
      pending.removeAll { $0.presented == next.presented }
      let style = model.nodes[next.presented].presentation.style ?? .pageSheet
      try await self[next.presenter].present(self[next.presented], style: style, animated: false)
    }
  }

  /// The family `index` belongs to now (runtime links), or nil.
  func family(of index: Int) -> PresentationFamily? {
    var current: any ViewController = self[index]
    while true {
      if let position = indexByID[current.node.id] {
        if let window = presentation.roots.firstIndex(of: position) { return .window(window) }
        if stackLeaves.contains(position) { return .leaf(position) }
      }
      guard let next = current.presentingViewController ?? current.parent else { return nil }
      current = next
    }
  }

  /// The controllers of `family` now: its base and what is built on it.
  func members(of family: PresentationFamily) -> [Int] {
    let candidates: [Int]
    switch family {
    case .window(let window):
      candidates =
        [presentation.roots[window], presentation.kids[window]] + presentation.presentables + presentation.inner
    case .leaf(let leaf): candidates = [leaf] + presentation.presentables + presentation.inner
    }
    return candidates.filter { self.family(of: $0) == family }
  }

  func gate(of family: PresentationFamily) -> StackGate {
    switch family {
    case .window(let window):
      return presentation.windowGates[window]
    case .leaf(let leaf):
      // Every stack leaf gets its gate at setup.
      guard let gate = presentation.leafGates.withLock({ $0[leaf] }) else {
        preconditionFailure("stack leaf \(leaf) has no gate")
      }
      return gate
    }
  }

  /// A random family: a presentation window's, or a stack leaf's.
  func randomFamily(_ rng: inout SplitMix64) -> PresentationFamily {
    if rng.chance(0.65) { return .window(rng.below(presentation.windows.count)) }
    // Mostly a leaf on top of its stack (one below cannot present: `presenterNotInWindow`).
    let shown = stackLeaves.filter { self[$0].viewIfLoaded?.window != nil }
    guard let leaf = rng.pick(rng.chance(0.8) && !shown.isEmpty ? shown : stackLeaves) else {
      return .window(rng.below(presentation.windows.count))
    }
    return .leaf(leaf)
  }

  /// Runs `body` inside `family`'s gate if `index` still belongs to it once in.
  func inFamily(_ family: PresentationFamily, of index: Int, exclusive: Bool, _ body: () async -> Outcome) async
    -> Outcome
  {
    let gate = gate(of: family)
    guard await gate.enter(exclusive: exclusive) else { return .cancelled }
    defer { gate.leave(exclusive: exclusive) }
    guard self.family(of: index) == family else { return .failed("left its family") }
    return await body()
  }
}

/// `present(_:style:animated:)` (P1, P2, P7): mostly from the top of a chain
/// (or a base that presents nothing), of a free `PC`; sometimes from any
/// member or of a busy `PC` (then `alreadyPresenting`, `alreadyPresented`,
/// `presenterNotInWindow`...: refused, nothing changes).
///
/// Variant: style index times 2, plus 1 if animated (300 ms; never from a stack
/// leaf's family, whose stack would wait for it).
///
/// `presentFromChild` presents only from a child that can leave its place
/// while it presents: a `PD` (its presented parent is dismissed) or a stack
/// leaf `V` (P7; the container kinds pop it and move it between trees); its
/// presentation then ends in that same transaction (`Model.endPresentations`). `present`
/// presents from the windows' roots, their kids and the `PC`s.
struct PresentKind: OperationKind {
  var name = OperationKindName.present
  var weight: Int { name == .present ? 4 : 2 }

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let family = world.randomFamily(&rng)
    let fromChild = name == .presentFromChild
    let members = world.members(of: family).filter { member in
      let isChild = world.presentation.inner.contains(member) || family == .leaf(member)
      return isChild == fromChild
    }
    let tops = members.filter { world[$0].presentedViewController == nil }
    guard let presenter = rng.pick(rng.chance(0.85) ? tops : members) else { return nil }
    let free = world.presentation.presentables.filter { world[$0].presentingViewController == nil }
    guard let presented = rng.pick(rng.chance(0.85) && !free.isEmpty ? free : world.presentation.presentables) else {
      return nil
    }
    var style = rng.below(styles.count)
    if case .leaf(let leaf) = family, presenter == leaf, style == 3 { style = rng.below(3) }
    var animated = false
    if case .window = family { animated = rng.chance(0.1) }
    return Operation(id: id, kind: name, targets: [presenter, presented], variant: style * 2 + (animated ? 1 : 0))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let presenter = operation.targets[0]
    let presented = operation.targets[1]
    guard let family = world.family(of: presenter) else { return .failed("no family") }
    let style = styles[operation.variant / 2]
    let animated = operation.variant % 2 == 1
    return await world.inFamily(family, of: presenter, exclusive: false) {
      do {
        let handle = try await world[presenter].present(world[presented], style: style, animated: animated)
        run.register(
          handle.id, [.present(presenter: presenter, presented: presented, style: style, animated: animated)],
          operation: operation.id)
        return .succeeded
      } catch {
        return outcome(of: error)
      }
    }
  }
}

/// `dismiss(animated:)` (P4) on any member of a family: a presenter (its
/// chain leaves, from the bottom or the middle), a presented controller
/// that presents nothing (it leaves), or one inside a presented tree (`PD`:
/// nothing to dismiss, not called here; `PresentMisuseKind` checks that case).
struct DismissKind: OperationKind {
  let name = OperationKindName.dismiss
  let weight = 4

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let family = world.randomFamily(&rng)
    let members = world.members(of: family).filter {
      world[$0].presentedViewController != nil || world[$0].presentingViewController != nil
    }
    guard let caller = rng.pick(members) else { return nil }
    return Operation(id: id, kind: name, targets: [caller], variant: rng.chance(0.1) ? 1 : 0)
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let caller = operation.targets[0]
    guard let family = world.family(of: caller) else { return .failed("no family") }
    return await world.inFamily(family, of: caller, exclusive: true) {
      // Nothing else in the family runs: the routing read here is the one
      // `dismiss` makes, unless a change of the presenter's own container
      // (not in the family) ends its presentation first (`DismissCall`).
      let controller = world[caller]
      let routed = controller.presentedViewController != nil ? controller : controller.presentingViewController
      guard let routed, let presenter = world.indexByID[routed.node.id] else { return .failed("nothing to dismiss") }
      let start = run.now()
      defer { run.dismissCalls.withLock { $0.append(DismissCall(controller: caller, start: start, end: run.now())) } }
      do {
        let handle = try await controller.dismiss(animated: operation.variant == 1)
        run.register(
          handle.id, [.dismiss(presenter: presenter, animated: operation.variant == 1)], operation: operation.id)
        return .succeeded
      } catch {
        return outcome(of: error)
      }
    }
  }
}

/// `interactiveDismiss` (P6) of a sheet on top of its chain (sometimes of any
/// member: `notADismissibleSheet`), finished (variant 0), cancelled (1), or
/// with a driver that throws (2).
///
/// `PC5` refuses it (`isModalInPresentation`): `cancelled`, and no event at
/// all.
struct InteractiveDismissKind: OperationKind {
  let name = OperationKindName.interactiveDismiss
  let weight = 3

  struct DriverGaveUp: Error {}

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let sheets = world.presentation.presentables.filter {
      world[$0].presentingViewController != nil && world[$0].presentedViewController == nil
        && world[$0].modalPresentationStyle?.isSheet == true
    }
    let members = world.members(of: world.randomFamily(&rng))
    guard let target = rng.pick(rng.chance(0.9) && !sheets.isEmpty ? sheets : members) else { return nil }
    return Operation(id: id, kind: name, targets: [target], variant: rng.chance(0.2) ? 2 : rng.below(2))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let target = operation.targets[0]
    guard let family = world.family(of: target) else { return .failed("no family") }
    let variant = operation.variant
    let step = ModelStep.interactiveDismiss(presented: target, finish: variant == 0)
    let modal = target == world.presentation.modal
    return await world.inFamily(family, of: target, exclusive: false) {
      let start = run.now()
      let started = Locked(false)
      do {
        let handle = try await world[target].interactiveDismiss { progress in
          started.withLock { $0 = true }
          progress.update(0.5)
          await Task.yield()
          progress.update(variant == 0 ? 0.9 : 0.1)
          if variant == 2 { throw DriverGaveUp() }
          return variant == 1 ? .cancel : .finish
        }
        if modal {
          let outcome = try handle.result?.get()
          if outcome != .cancelled || started.withLock({ $0 }) {
            run.report(
              Finding(
                category: .expectedError,
                message:
                  "\(run.describe(operation)): a modal sheet's interactive dismissal gave \(outcome.map { "\($0)" } ?? "nothing")",
                operations: [operation.id]))
          }
          return .failed("refused: modal")
        }
        run.register(handle.id, [step], operation: operation.id)
        return .succeeded
      } catch {
        if error is DriverGaveUp {
          run.unidentified.withLock {
            $0.append(
              UnidentifiedRequest(steps: [step], operation: operation.id, first: target, start: start, end: run.now()))
          }
        }
        return outcome(of: error)
      }
    }
  }
}

/// A presentation window's root set to nil and back (its presentations
/// leave with it, top layer first, each presenter told `dismissed`), or
/// the two windows' roots swapped through nil; alone in both families.
struct PresentationRootKind: OperationKind {
  let name = OperationKindName.presentationRoot
  let weight = 1

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    Operation(id: id, kind: name, targets: [world.presentation.roots[rng.below(world.presentation.roots.count)]])
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    guard let window = world.presentation.roots.firstIndex(of: operation.targets[0]) else {
      return .failed("no window")
    }
    let gate = world.presentation.windowGates[window]
    guard await gate.enter(exclusive: true) else { return .cancelled }
    defer { gate.leave(exclusive: true) }
    let root = world.presentation.roots[window]
    for target in [nil, root] as [Int?] {
      do {
        let handle = try await world.presentation.windows[window].setRootViewController(target.map { world[$0] })
        run.register(handle.id, [.presentationRoot(window: window, root: target)], operation: operation.id)
      } catch {
        guard target == nil else {
          // Cancelled while queued: the root must come back, whatever the task's state.
          let restore = Task {
            do {
              let handle = try await world.presentation.windows[window].setRootViewController(world[root])
              run.register(handle.id, [.presentationRoot(window: window, root: root)], operation: operation.id)
            } catch {
              run.report(
                Finding(
                  category: .expectedError, message: "presentation window \(window): restoring its root threw \(error)",
                  operations: [operation.id]))
            }
          }
          await restore.value
          return outcome(of: error)
        }
        return outcome(of: error)
      }
    }
    return .succeeded
  }
}

/// A controller no world tree knows (its stream is not recorded).
private actor PresentationLoner: ViewController {
  nonisolated let node: ControllerNode
  init(_ name: String) { node = ControllerNode(name: name) }
}

/// The misuse of §8 for presentation: presenting self (variant 0), a child
/// (1), a window's root (2), from a controller in no window (3), from one
/// already presenting or something already presented (4), and dismissing
/// with nothing presented (5: `callIgnored(.nothingToDismiss)`, no error).
///
/// Each throws its typed error and changes nothing: on the world's
/// controllers the model sees no event and the trees unchanged; on loners
/// the links are checked here.
struct PresentMisuseKind: OperationKind {
  let name = OperationKindName.presentMisuse
  let weight = 2

  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation? {
    let window = rng.below(world.presentation.roots.count)
    return Operation(
      id: id, kind: name, targets: [world.presentation.roots[window], world.presentation.kids[window]],
      variant: rng.below(6))
  }

  func execute(_ operation: Operation, run: Run) async -> Outcome {
    let world = run.world
    let root = world[operation.targets[0]]
    let kid = world[operation.targets[1]]
    guard let other = world.presentation.roots.first(where: { $0 != operation.targets[0] }) else {
      preconditionFailure("the presentation world has more than one window")
    }
    let otherRoot = world[other]
    switch operation.variant {
    case 0, 1:
      // Beside every other request of the window's family.
      if operation.variant == 1 {
        return await expect(run, operation, { $0 == .hasParent(kid.node.id) }) {
          try await root.present(kid, animated: false)
        }
      }
      return await expect(run, operation, { $0 == .cannotPresentSelf(root.node.id) }) {
        try await root.present(root, animated: false)
      }
    case 2:
      // Beside every request of this window's family; the other window's
      // root stays its root meanwhile (`PresentationRootKind` waits for that
      // window's gate), or presenting it would not be a misuse.
      guard let window = world.presentation.roots.firstIndex(of: other) else {
        preconditionFailure("the other root is a presentation window's root")
      }
      let gate = world.presentation.windowGates[window]
      guard await gate.enter(exclusive: false) else { return .cancelled }
      defer { gate.leave(exclusive: false) }
      return await expect(run, operation, { $0 == .alreadyPresented(otherRoot.node.id) }) {
        try await kid.present(otherRoot, animated: false)
      }
    case 3:
      let presenter = PresentationLoner("loner presenter")
      let presented = PresentationLoner("loner presented")
      let outcome = await expect(run, operation, { $0 == .presenterNotInWindow(presenter.node.id) }) {
        try await presenter.present(presented, animated: false)
      }
      unchanged(run, operation, [presenter, presented])
      return outcome
    case 4:
      return await alreadyPresenting(operation, run: run)
    default:
      let loner = PresentationLoner("loner")
      var events = loner.events().makeAsyncIterator()
      do {
        try await loner.dismiss(animated: false)
      } catch {
        run.report(
          Finding(
            category: .expectedError,
            message: "\(run.describe(operation)): dismiss with nothing presented threw \(error)",
            operations: [operation.id]))
      }
      let heard = [await events.next()?.kind, await events.next()?.kind]
      if heard != [.subscribed(state: .disappeared, parent: nil), .callIgnored(.nothingToDismiss)] {
        run.report(
          Finding(
            category: .expectedError,
            message: "\(run.describe(operation)): dismiss with nothing presented: heard \(heard)",
            operations: [operation.id]))
      }
      unchanged(run, operation, [loner])
      return .failed("\(IgnoredCall.nothingToDismiss)")
    }
  }

  /// A loner window whose root presents a sheet: presenting again from the
  /// root, and presenting the sheet from a second window's root, are refused.
  private func alreadyPresenting(_ operation: Operation, run: Run) async -> Outcome {
    let windows = [Window(environment: run.world.environment), Window(environment: run.world.environment)]
    let root = PresentationLoner("loner root")
    let sheet = PresentationLoner("loner sheet")
    let other = PresentationLoner("loner other")
    let stranger = PresentationLoner("loner stranger")
    let result = await alreadyPresenting(
      operation, run: run, root: root, sheet: sheet, other: other, stranger: stranger, windows: windows)
    for window in windows {
      do { try await window.tearDown() } catch {
        run.report(Finding(category: .expectedError, message: "a loner window's teardown threw \(error)"))
      }
    }
    return result
  }

  private func alreadyPresenting(
    _ operation: Operation, run: Run, root: PresentationLoner, sheet: PresentationLoner, other: PresentationLoner,
    stranger: PresentationLoner, windows: [Window]
  ) async -> Outcome {
    do {
      try await windows[0].setRootViewController(root)
      try await windows[1].setRootViewController(other)
      try await root.present(sheet, style: .formSheet, animated: false)
    } catch {
      return outcome(of: error)
    }
    var result = await expect(
      run, operation, { $0 == .alreadyPresenting(presenter: root.node.id, presented: sheet.node.id) }
    ) {
      try await root.present(stranger, animated: false)
    }
    if result != .cancelled {
      result = await expect(run, operation, { $0 == .alreadyPresented(sheet.node.id) }) {
        try await other.present(sheet, animated: false)
      }
    }
    if root.presentedViewController !== sheet || sheet.presentingViewController !== root
      || sheet.modalPresentationStyle != .formSheet
      || other.presentedViewController != nil || stranger.presentingViewController != nil
    {
      run.report(
        Finding(
          category: .expectedError, message: "\(run.describe(operation)): a refused presentation changed the links",
          operations: [operation.id]))
    }
    for controller in [root, sheet, other, stranger] as [any ViewController] {
      for violation in controller.checkInvariants(quiescent: true) {
        run.report(
          Finding(
            category: .invariant, message: "\(run.describe(operation)): \(violation.message)",
            operations: [operation.id]))
      }
    }
    return result
  }

  /// Reports loners that gained a presentation link.
  private func unchanged(_ run: Run, _ operation: Operation, _ controllers: [any ViewController]) {
    for controller in controllers
    where controller.presentedViewController != nil || controller.presentingViewController != nil {
      run.report(
        Finding(
          category: .expectedError,
          message: "\(run.describe(operation)): \(controller.node.name) gained a presentation link",
          operations: [operation.id]))
    }
  }

  /// The typed error `matches`, or a finding; cancellation is no finding.
  private func expect(
    _ run: Run, _ operation: Operation, _ matches: (ContainmentError) -> Bool, _ body: () async throws -> Void
  ) async -> Outcome {
    do {
      try await body()
      run.report(
        Finding(
          category: .expectedError, message: "\(run.describe(operation)): the misuse did not throw",
          operations: [operation.id]))
      return .succeeded
    } catch let error as ContainmentError {
      if !matches(error) {
        run.report(
          Finding(
            category: .expectedError, message: "\(run.describe(operation)): unexpected \(error)",
            operations: [operation.id]))
      }
      return .failed("\(error)")
    } catch {
      return outcome(of: error)
    }
  }
}
