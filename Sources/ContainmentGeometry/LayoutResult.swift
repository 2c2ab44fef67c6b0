/// The outcome of ``LayoutSolver/solve(nodes:constraints:)``.
///
/// Plain value type; safe to share across concurrency domains.
public struct LayoutResult<Item: Hashable & Sendable>: Sendable, Equatable {
  /// The solved frame of every node passed to the solver, each in its superview's coordinate space.
  public var frames: [Item: Rect]
  /// The constraints that do not hold for ``frames``, in the order they were passed to the solver.
  ///
  /// Empty when every constraint is satisfied.
  public var unsatisfied: [LayoutConstraint<Item>]

  /// Creates a result from solved frames and the constraints that do not hold for them.
  public init(frames: [Item: Rect], unsatisfied: [LayoutConstraint<Item>]) {
    self.frames = frames
    self.unsatisfied = unsatisfied
  }
}
