/// A transaction's admission into its tree (``HierarchyExclusion``): what
/// leaving undoes.
struct ExclusionAdmission: Sendable {
  let slot: HierarchySlot
  let mark: TreeBusyMark
  /// The root slots of the trees this transaction adopts.
  let adopted: [HierarchySlot]
}
