/// How the driver of an interactive gesture ends it: an interactive pop
/// (N7) or an interactive dismissal (P6).
public enum InteractiveDecision: Sendable, Hashable, Codable {
  /// Complete it: the pop or the dismissal happens.
  case finish
  /// Roll it back: the stack, the presentation and the screen stay as they were.
  case cancel
}

/// The decision that ends an interactive pop (N7).
public typealias InteractivePopDecision = InteractiveDecision
