import ContainmentLocking
/// Appearance changes of several children, collected and then committed as
/// one transaction by their container (A7): the coalescing a
/// manual-forwarding container uses to swap several panes at once.
///
/// ```swift
/// var batch = AppearanceBatch()
/// batch.disappear(left)
/// batch.appear(right)
/// batch.appear(left)          // left's net change: none
/// try await container.commit(batch, duration: .milliseconds(250))
/// ```
public struct AppearanceBatch: Sendable {
  struct Intent: Sendable {
    let child: any ViewController
    let isAppearing: Bool
  }
  private(set) var intents: [Intent] = []

  /// An empty batch; add intents, then hand it to ``ViewController/commit(_:animated:duration:animations:)``.
  public init() {}

  /// Asks for `child` to be appeared when the batch commits.
  public mutating func appear(_ child: any ViewController) {
    intents.append(Intent(child: child, isAppearing: true))
  }

  /// Asks for `child` to be disappeared when the batch commits.
  public mutating func disappear(_ child: any ViewController) {
    intents.append(Intent(child: child, isAppearing: false))
  }

  /// Each named child's last request, keyed by identity.
  func netIntents() -> [ObjectIdentifier: Bool] {
    var net: [ObjectIdentifier: Bool] = [:]
    for intent in intents { net[ObjectIdentifier(intent.child)] = intent.isAppearing }
    return net
  }
}

extension ViewController {
  /// Commits a batch of children's appearance changes as one transaction on
  /// this container's queue (A7).
  ///
  /// Each child's *net* change is delivered exactly once: a child asked to
  /// appear and then to disappear (ending where it started) gets no hooks; a
  /// child whose state changes gets one will-hook and, later, one did-hook.
  /// Order: every will-hook (disappearing children first, then appearing ones,
  /// each group in `children` order; each child's automatically forwarded
  /// descendants right after it), then `viewIsAppearing` of the appearing
  /// ones, then the batch's `animations` while it waits `duration` on the
  /// tree's clock (once, for the whole batch), then every did-hook in the same
  /// order, then a `batchCommitted` event on the container. Every event of the
  /// batch carries the batch's transaction id.
  ///
  /// Views are not moved: install or remove the children's views yourself.
  /// Cancellation: as for ``transition(from:to:duration:options:animations:)``,
  /// the wait is cut short, every will-hook still gets its did-hook, and the
  /// outcome is ``TransitionOutcome/interrupted``. Throws
  /// ``ContainmentError/tornDown(_:)``,
  /// ``ContainmentError/batchNeedsManualForwarding(_:)`` (a batch that names
  /// children belongs to a container that answers
  /// `shouldAutomaticallyForwardAppearanceMethods == false`, A6; an
  /// automatic container's forwarding already decides its children's
  /// appearance; an empty batch is accepted anywhere) or ``ContainmentError/notAChild(child:parent:)``
  /// before anything changes.
  @discardableResult
  public nonisolated func commit(
    _ batch: AppearanceBatch,
    animated: Bool = false,
    duration: Duration = .zero,
    animations: (@Sendable () async -> Void)? = nil
  ) async throws -> TransactionHandle<TransitionOutcome> {
    let node = self.node
    return try await Transaction.perform(on: .controller(self)) { context in
      let net = batch.netIntents()
      var pass = AppearancePass(animated: animated || duration > .zero)
      let (environment, disappearing, appearing) = try TreeLock.withLock([node] + batch.intents.map(\.child.node)) {
        (held: LinkSection) -> (ContainmentEnvironment, [ControllerID], [ControllerID]) in
        if node[held].supervision.isTornDown { throw ContainmentError.tornDown(node.id) }
        if !batch.intents.isEmpty, self.shouldAutomaticallyForwardAppearanceMethods {
          throw ContainmentError.batchNeedsManualForwarding(node.id)
        }
        for intent in batch.intents where !intent.child.node.hasParent(held, self) {
          throw ContainmentError.notAChild(child: intent.child.node.id, parent: node.id)
        }
        var disappearing: [ControllerID] = []
        var appearing: [ControllerID] = []
        for isAppearing in [false, true] {
          for child in node[held].children where net[ObjectIdentifier(child)] == isAppearing {
            let before = pass.beganCount
            pass.beginForwarding(held, from: child, isAppearing: isAppearing)
            guard pass.beganCount > before else { continue }
            if isAppearing { appearing.append(child.node.id) } else { disappearing.append(child.node.id) }
          }
        }
        return (node.resolvedEnvironment(held), disappearing, appearing)
      }
      await pass.deliverWill(in: context)
      await pass.deliverIsAppearing(in: context)
      let interrupted = await Self.animate(
        for: duration, on: environment, animations: animations, of: self, bodyOf: context)
      await pass.deliverDid(in: context)
      node.emit(.batchCommitted(disappearing: disappearing, appearing: appearing), transaction: context.id)
      return interrupted || Task.isCancelled ? .interrupted : .completed
    }
  }
}
