/// How a transition animates. The runtime is headless, so these only travel
/// with the transition's events and to the animations closure; they never
/// change hook order or timing (timing is `duration` on the tree's clock).
public struct TransitionOptions: OptionSet, Sendable, Hashable, Codable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let crossDissolve = TransitionOptions(rawValue: 1 << 0)
  public static let flipFromLeft = TransitionOptions(rawValue: 1 << 1)
  public static let flipFromRight = TransitionOptions(rawValue: 1 << 2)
  public static let curveEaseInOut = TransitionOptions(rawValue: 1 << 3)
}
