import ContainmentLocking

extension Governor {
  /// Under the link lock: the transaction of `chain` that has delivered a
  /// hook to this governor's controller or to one above it (its container,
  /// its presenter, and theirs), if any.
  ///
  /// That transaction may still owe them hooks until it ends, so a request onto
  /// this governor from one of its hooks waits for its end (R2). A controller
  /// whose `viewDidLoad` this task is running does not count: children a
  /// container builds while its view loads are added before it appears, as in
  /// UIKit. O(depth).
  func engagingTransaction(_ held: LinkSection, in chain: [TransactionContext]) -> TransactionContext? {
    guard case .controller(let controller) = self else { return nil }
    let loading = ViewLoading.current
    var current: ControllerNode? = controller.node
    while let node = current {
      if let id = node.engagement.transaction, !loading.contains(node.id),
        let engaged = chain.first(where: { $0.id == id })
      {
        return engaged
      }
      current = node[held].treeParent
    }
    return nil
  }
}
