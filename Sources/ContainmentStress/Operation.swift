import Containment
import ContainmentTestKit

/// One request the workload makes, as plain data: which kind, which
/// controllers (world indices), which variant, and whether and when the
/// issuing task is cancelled.
///
/// Plain data so that a failing run can re-run any subset of its operations
/// (the reducer).
struct Operation: Sendable, CustomStringConvertible {
  var id: Int
  var kind: OperationKindName
  var targets: [Int]
  var variant: Int = 0
  var cancellation: Cancellation?

  enum Cancellation: Sendable, Hashable {
    /// The task is cancelled before the request is made.
    case immediately
    /// Cancelled after this many microseconds: while queued, or while running.
    case after(microseconds: Int)
  }

  /// Like `description`, with controller names.
  func describe(names: [String]) -> String {
    let cancel: String
    switch cancellation {
    case nil: cancel = ""
    case .immediately?: cancel = ", task cancelled at once"
    case .after(let microseconds)?: cancel = ", task cancelled after \(microseconds)µs"
    }
    let targets = self.targets.map { names.indices.contains($0) ? names[$0] : "#\($0)" }.joined(separator: ", ")
    return "\(kind.rawValue)(\(targets)\(variant == 0 ? "" : "; variant \(variant)")\(cancel))"
  }

  var description: String {
    let cancel: String
    switch cancellation {
    case nil: cancel = ""
    case .immediately?: cancel = " [cancelled at once]"
    case .after(let microseconds)?: cancel = " [cancelled after \(microseconds)µs]"
    }
    return
      "\(kind.rawValue)(\(targets.map { "#\($0)" }.joined(separator: ", "))\(variant == 0 ? "" : " v\(variant)"))\(cancel)"
  }
}

/// The names of the operation kinds (the registry is `OperationKinds.all`).
enum OperationKindName: String, Sendable, CaseIterable, Hashable {
  case add, move, oppositeMoves, remove, install, uninstall, transition, batch
  case manualAppearance, toggleContainer, nested, misuse
  // Built-in containers (ContainerKinds.swift).
  case push, pop, popTo, popToRoot, setStack, interactivePop, selectTab, setTabIndex, setTabs, traitFlip, showColumn
  // Trees that merge and split, hooks that remove their own controller (HopKinds.swift).
  case selfRemoval, rehome
  // Custom containers on the transaction scope and the children-change engine (ScopeKinds.swift).
  case scope, engine
  // Deep stacks, wide containers and parts torn down beside the modelled
  // trees (BulkKinds.swift).
  case deepStack, wideContainer, tearDownPart
  // Modal presentation (PresentationKinds.swift).
  case present, dismiss, interactiveDismiss, presentationRoot, presentMisuse, presentFromChild
  // Readiness waits on any controller while its tree merges, splits and runs
  // (SupervisionKinds.swift); hooks past their deadline, only with
  // `--fault hung-hook`; containers with slow children, only with
  // `--fault slow-children` (SlowChildrenKinds.swift).
  case awaitIdle, hungHook, slowChildren
  // A parent released while its child is read and changed (BulkKinds.swift).
  case orphan
  // Windows released mid-presentation and mid-animation, services shut down
  // before they run (WindowKinds.swift).
  case releasedWindow

  /// Kinds that act on the built-in containers.
  var isContainerKind: Bool {
    switch self {
    case .push, .pop, .popTo, .popToRoot, .setStack, .interactivePop, .selectTab, .setTabIndex, .setTabs, .traitFlip,
      .showColumn:
      true
    default: false
    }
  }

  /// Kinds the workload never cancels at random: their hooks make requests
  /// that must not be cut short (a half-done self-removal would leave a
  /// controller announced as leaving), or they rebuild structures in many steps.
  var isShielded: Bool {
    switch self {
    case .selfRemoval, .rehome, .deepStack, .wideContainer: true
    // Its part's stream is read to the end.
    case .tearDownPart: true
    // Every planted hang is accounted for: a cancelled one would not be.
    case .hungHook: true
    // Each container it builds is taken down again, and checked.
    case .slowChildren: true
    // Its loners' streams and windows are read to the end (a cancelled task's iterator ends early).
    case .presentMisuse: true
    default: false
    }
  }
}

/// A snapshot of the links, read once per generated operation.
struct WorldSnapshot {
  var parent: [Int?]
  var children: [[Int]]
  var installed: [Bool]
  var appearance: [AppearanceState]

  init(_ world: World) {
    parent = world.controllers.map { $0.parent.flatMap { world.indexByID[$0.node.id] } }
    children = world.controllers.map { $0.children.compactMap { world.indexByID[$0.node.id] } }
    installed = world.controllers.map { $0.viewIfLoaded?.superview != nil }
    appearance = world.controllers.map { $0.node.appearanceState }
  }
}

/// One kind of operation: how to make a random one, and how to run it,
/// registering each of its transactions with the model steps it performed.
///
/// To add a kind (a navigation push, a tab selection...): give it a name,
/// generate it from a snapshot, run it through the runtime's verb, register
/// its transactions' steps, and teach `Model.apply` the new steps.
protocol OperationKind: Sendable {
  var name: OperationKindName { get }
  /// Relative frequency in the default mix.
  var weight: Int { get }
  /// A random operation of this kind on the current state, or nil if none applies.
  func generate(_ rng: inout SplitMix64, world: World, snapshot: WorldSnapshot, id: Int) -> Operation?
  /// Runs it; returns its outcome. Registers its transactions on `run`.
  func execute(_ operation: Operation, run: Run) async -> Outcome
}

/// Turns a thrown error into an outcome.
func outcome(of error: any Error) -> Outcome {
  if error is CancellationError { return .cancelled }
  if let error = error as? ContainmentError { return .failed("\(error)") }
  return .failed("\(type(of: error)): \(error)")
}

/// Runs `body`, cancelling its task as `cancellation` says.
func withCancellation(_ cancellation: Operation.Cancellation?, _ body: @escaping @Sendable () async -> Outcome) async
  -> Outcome
{
  guard let cancellation else { return await body() }
  return await withTaskGroup(of: Outcome?.self) { group in
    switch cancellation {
    case .immediately:
      group.addTask {
        withUnsafeCurrentTask { $0?.cancel() }
        return await body()
      }
    case .after(let microseconds):
      group.addTask { await body() }
      group.addTask {
        if microseconds == 0 { await Task.yield() } else { try? await Task.sleep(for: .microseconds(microseconds)) }
        return nil
      }
    }
    var result: Outcome = .cancelled
    while let next = await group.next() {
      if let outcome = next { result = outcome }
      group.cancelAll()
    }
    return result
  }
}
