extension ViewController {
  /// Under the link lock: links the controllers `decision` adds (marking them
  /// as moving to this parent) and marks those it removes as moving from it.
  /// The caller sets `_children` to the new list; the removed ones are
  /// unlinked later with `_detachFromParent()`, after their hooks.
  nonisolated func _link(_ decision: StackDecision) {
    for controller in decision.added {
      controller.node._attach(to: self)
      controller.node._isMovingToParent = true
    }
    for controller in decision.removed { controller.node._isMovingFromParent = true }
  }

  /// Announces a decided change of children, in order: `childAdded` events,
  /// then `willMove(toParent: nil)` to each leaving child, then
  /// `willMove(toParent: self)` to each joining one.
  nonisolated func announce(_ decision: StackDecision, in context: TransactionContext) async {
    for controller in decision.added { node.emit(.childAdded(controller.node.id), transaction: context.id) }
    for controller in decision.removed { await controller.deliver(.willMove(toParent: nil), in: context) }
    for controller in decision.added { await controller.deliver(.willMove(toParent: self), in: context) }
  }
}
