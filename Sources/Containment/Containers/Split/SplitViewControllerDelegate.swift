/// Takes part in a ``SplitViewController``'s collapse and expansion (S2).
///
/// Held **weakly**, like every container delegate (see
/// ``NavigationControllerDelegate`` for why). Methods run inside the split
/// controller's transaction, as hooks of it: a request the delegate makes to
/// the split controller is queued behind the running one (R2). Every
/// method has a default.
public protocol SplitViewControllerDelegate: AnyObject, Sendable {
  /// Which column stays shown when the split collapses to one column
  /// (regular → compact, or laid out compact the first time). Asked before
  /// any hook of the collapse. Default: `proposed`, which is always
  /// ``SplitColumn/primary``.
  func splitViewController(
    _ splitViewController: SplitViewController, topColumnForCollapsingToProposedTopColumn proposed: SplitColumn
  ) async -> SplitColumn
  /// After a collapse, once its hooks have run.
  func splitViewControllerDidCollapse(_ splitViewController: SplitViewController) async
  /// After an expansion (compact → regular), once its hooks have run.
  func splitViewControllerDidExpand(_ splitViewController: SplitViewController) async
}

extension SplitViewControllerDelegate {
  /// Default: the proposed column.
  public func splitViewController(
    _ splitViewController: SplitViewController, topColumnForCollapsingToProposedTopColumn proposed: SplitColumn
  ) async -> SplitColumn { proposed }
  /// Default: does nothing.
  public func splitViewControllerDidCollapse(_ splitViewController: SplitViewController) async {}
  /// Default: does nothing.
  public func splitViewControllerDidExpand(_ splitViewController: SplitViewController) async {}
}
