import ContainmentLocking
extension ViewController {
  /// Told of interactive dismissals of this controller while it is presented
  /// (P6); held weakly.
  public nonisolated var presentationControllerDelegate: (any PresentationControllerDelegate)? {
    get { TreeLock.withLock(node) { held in node[held].presentationDelegate } }
    set { TreeLock.withLock(node) { held in node[held].presentationDelegate = newValue } }
  }

  /// An interactive dismissal of this sheet (P6), driven by `driver`: the
  /// swipe-down gesture of UIKit, as one structured call, shaped like
  /// ``NavigationController/interactivePop(_:)``.
  ///
  /// - **Refused** if ``isModalInPresentation`` is true or the
  ///   ``presentationControllerDelegate`` answers `false` to
  ///   `presentationControllerShouldDismiss`: nothing changes, the delegate's
  ///   `presentationControllerDidAttemptToDismiss` is told, `driver` never
  ///   runs, and the outcome is ``TransitionOutcome/cancelled``.
  /// - **Start**: `viewWillDisappear` (this controller and its installed
  ///   children, A1), then the delegate's `presentationControllerWillDismiss`.
  ///   ``isBeingDismissed`` is true from here until the gesture ends.
  /// - `driver` runs, reporting progress, and returns a decision.
  /// - **Finish**: the rest of ``presentationDuration`` on the tree's clock,
  ///   the view leaves the window, `viewDidDisappear`; the presentation ends
  ///   (`dismissed` on the presenter's stream) and the delegate's
  ///   `presentationControllerDidDismiss` follows. Outcome
  ///   ``TransitionOutcome/completed``.
  /// - **Cancel** (or `driver` throws): the animation back, then the reversal
  ///   (A3): `viewWillAppear → viewIsAppearing → viewDidAppear`; it stays
  ///   presented. Outcome ``TransitionOutcome/cancelled``; a thrown error is
  ///   rethrown after the reversal.
  ///
  /// One transaction on the presenter's queue (P5): requests made meanwhile,
  /// from other tasks or from `driver`, wait until the gesture ends.
  ///
  /// Throws ``ContainmentError/notADismissibleSheet(_:)`` if this controller
  /// is not presented as a sheet or presents something itself, when called
  /// or when its turn comes (it was dismissed meanwhile, or another
  /// controller presents it now); then nothing changes.
  @discardableResult
  public nonisolated func interactiveDismiss(
    _ driver: @escaping @Sendable (InteractiveDismissalProgress) async throws -> InteractiveDecision
  ) async throws -> TransactionHandle<TransitionOutcome> {
    let presenter = try TreeLock.withLock(node) { (held: LinkSection) throws -> any ViewController in
      try dismissibleSheetPresenter(held)
    }
    return try await Transaction.perform(on: .controller(presenter)) { context in
      try await self.runInteractiveDismissal(driver, on: presenter, context: context)
    }
  }

  /// Under the link lock: the presenter, if this controller is a sheet on
  /// top of its chain.
  nonisolated func dismissibleSheetPresenter(_ held: LinkSection) throws -> any ViewController {
    guard let presenter = node[held].presenting, node[held].presentationStyle?.isSheet == true,
      node[held].presented == nil
    else {
      throw ContainmentError.notADismissibleSheet(node.id)
    }
    return presenter
  }

  /// Runs on `queued`'s queue: refused if this controller is no longer a
  /// dismissible sheet presented by `queued` (it left while the request
  /// waited, and another controller may present it now: its chain is not
  /// this queue's to change).
  nonisolated func runInteractiveDismissal(
    _ driver: @escaping @Sendable (InteractiveDismissalProgress) async throws -> InteractiveDecision,
    on queued: any ViewController,
    context: TransactionContext
  ) async throws -> TransitionOutcome {
    let delegate = try TreeLock.withLock(node) { (held: LinkSection) throws -> (any PresentationControllerDelegate)? in
      guard try dismissibleSheetPresenter(held) === queued else { throw ContainmentError.notADismissibleSheet(node.id) }
      return node[held].presentationDelegate
    }
    var refused = isModalInPresentation
    if !refused, let delegate {
      refused = await !Gateway.call(
        UserCall("presentationControllerShouldDismiss(_:)", of: self), in: context, ifAbandoned: { true }
      ) { await delegate.presentationControllerShouldDismiss(self) }
    }
    if refused {
      if let delegate {
        await Gateway.call(
          UserCall("presentationControllerDidAttemptToDismiss(_:)", of: self), in: context, ifAbandoned: {}
        ) { await delegate.presentationControllerDidAttemptToDismiss(self) }
      }
      return .cancelled
    }

    var start = AppearancePass(animated: true)
    // Off screen (a `.fullScreen` presentation from a child covers it), it hears nothing, either way.
    let (environment, onScreen) = TreeLock.withLock(node) { (held: LinkSection) -> (ContainmentEnvironment, Bool) in
      node[held].isBeingDismissed = true
      let onScreen = node[held].view?.window(held) != nil
      if onScreen { start.beginForwarding(held, from: self, isAppearing: false) }
      return (node.resolvedEnvironment(held), onScreen)
    }
    await start.deliverWill(in: context)
    if let delegate {
      await Gateway.call(UserCall("presentationControllerWillDismiss(_:)", of: self), in: context, ifAbandoned: {}) {
        await delegate.presentationControllerWillDismiss(self)
      }
    }

    let progress = InteractiveDismissalProgress(presented: self)
    // A driver no longer waited for cancels the gesture.
    let decision = await Gateway.call(
      UserCall("interactiveDismiss driver", of: self), in: context, ifAbandoned: { .success(.cancel) }
    ) { await Result(catching: { try await driver(progress) }) }
    let finishes = (try? decision.get()) == .finish
    let remaining = finishes ? 1 - progress.percentComplete : progress.percentComplete
    let interrupted = await Self.animate(for: presentationDuration * remaining, on: environment, animations: nil)

    if finishes {
      // What it presents from inside its tree leaves first (see `runDismissal`).
      let nested = TreeLock.withLock(node) { held in Self.presentersInside(held, leaving: [self]) }
      for presenter in nested { await presenter.runDismissal(animated: false, context: context) }
      TreeLock.withLock(node) { held in node[held].view?.unlink(held) }
      await start.deliverDid(in: context)
      let ended = TreeLock.withLock(node) {
        (held: LinkSection) -> (presenter: ControllerNode, style: PresentationStyle)? in
        node[held].isBeingDismissed = false
        return node.endPresentation(held)
      }
      if let ended {
        ended.presenter.emit(.dismissed(node.id, style: ended.style, reason: .dismissed), transaction: context.id)
      }
      if let delegate {
        await Gateway.call(UserCall("presentationControllerDidDismiss(_:)", of: self), in: context, ifAbandoned: {}) {
          await delegate.presentationControllerDidDismiss(self)
        }
      }
      return interrupted || Task.isCancelled ? .interrupted : .completed
    }
    var back = AppearancePass(animated: true)
    TreeLock.withLock(node) { held in
      node[held].isBeingDismissed = false
      if onScreen { back.beginForwarding(held, from: self, isAppearing: true) }
    }
    await back.deliverWill(in: context)
    // The reversal shares the start's nesting level: ending it delivers the
    // appearance's `viewIsAppearing` and `viewDidAppear` (A3).
    await start.deliverDid(in: context)
    if case .failure(let error) = decision { throw error }
    return .cancelled
  }
}
