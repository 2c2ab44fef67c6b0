import Containment

/// A controller that logs every hook to a shared ``HookLog`` as
/// "Name.hook" (with the parent's name for moves: "B.willMove(P)",
/// "B.didMove(nil)"), for tests that assert the ordered hook log.
///
/// It can forward appearance manually (`forwardsAppearance: false`) and run
/// an extra action inside any hook (`onHook`), to test nested requests.
public actor RecordingController: ViewController {
  /// The runtime's state for this controller.
  public nonisolated let node: ControllerNode
  /// Logs the hook, then runs the `onHook` action.
  public nonisolated let log: HookLog
  private nonisolated let forwardsAppearance: Bool
  private var onHook: (@Sendable (String) async -> Void)?

  /// - Parameters:
  ///   - name: the name used in the log and in event paths.
  ///   - log: the shared log.
  ///   - forwardsAppearance: the answer to `shouldAutomaticallyForwardAppearanceMethods`.
  public init(_ name: String, log: HookLog, forwardsAppearance: Bool = true) {
    self.node = ControllerNode(name: name)
    self.log = log
    self.forwardsAppearance = forwardsAppearance
  }

  /// Logs the hook, then runs the `onHook` action.
  public nonisolated var shouldAutomaticallyForwardAppearanceMethods: Bool { forwardsAppearance }

  /// Runs `action` with the hook's name ("viewWillAppear", ...) after each hook is logged.
  public func setOnHook(_ action: (@Sendable (String) async -> Void)?) { onHook = action }

  private func record(_ hook: String, _ detail: String = "") async {
    log.append("\(node.name).\(hook)\(detail)")
    if let onHook { await onHook(hook) }
  }

  private static func name(_ parent: (any ViewController)?) -> String { parent?.node.name ?? "nil" }

  /// Logs the hook, then runs the `onHook` action.
  public func viewDidLoad() async { await record("viewDidLoad") }
  /// Logs the hook, then runs the `onHook` action.
  public func viewWillAppear(_ animated: Bool) async { await record("viewWillAppear") }
  /// Logs the hook, then runs the `onHook` action.
  public func viewIsAppearing(_ animated: Bool) async { await record("viewIsAppearing") }
  /// Logs the hook, then runs the `onHook` action.
  public func viewDidAppear(_ animated: Bool) async { await record("viewDidAppear") }
  /// Logs the hook, then runs the `onHook` action.
  public func viewWillDisappear(_ animated: Bool) async { await record("viewWillDisappear") }
  /// Logs the hook, then runs the `onHook` action.
  public func viewDidDisappear(_ animated: Bool) async { await record("viewDidDisappear") }
  /// Logs the hook, then runs the `onHook` action.
  public func viewWillMove(toParent parent: (any ViewController)?) async {
    await record("willMove", "(\(Self.name(parent)))")
  }
  /// Logs the hook, then runs the `onHook` action.
  public func viewDidMove(toParent parent: (any ViewController)?) async {
    await record("didMove", "(\(Self.name(parent)))")
  }
  /// Logs the hook, then runs the `onHook` action.
  public func traitCollectionDidChange(_ previous: TraitCollection?) async { await record("traitCollectionDidChange") }
  /// Logs the hook, then runs the `onHook` action.
  public func viewDidTearDown() async { await record("viewDidTearDown") }
}
