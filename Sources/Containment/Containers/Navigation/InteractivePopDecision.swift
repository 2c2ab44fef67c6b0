/// How the driver of an interactive pop ends the gesture (SPEC N7).
public enum InteractivePopDecision: Sendable, Hashable, Codable {
  /// Complete the pop: the revealed controller appears, the popped one leaves the stack.
  case finish
  /// Roll it back: the stack and the screen stay as they were.
  case cancel
}
