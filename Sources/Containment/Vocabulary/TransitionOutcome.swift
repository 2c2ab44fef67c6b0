/// How a transition ended (T4, N7).
public enum TransitionOutcome: Sendable, Hashable, Codable, CustomStringConvertible {
  /// It ran to the end.
  case completed
  /// The task driving it was cancelled: the animation was cut short and the
  /// transition finished at its end state, every will-hook matched by its
  /// did-hook (the runtime's policy: finish, never half-undo).
  case interrupted
  /// An interactive transition was cancelled by its driver and rolled back
  /// (N7): the reversal hooks were delivered and the old state restored.
  case cancelled

  /// A readable description.
  public var description: String {
    switch self {
    case .completed: "completed"
    case .interrupted: "interrupted"
    case .cancelled: "cancelled"
    }
  }
}
