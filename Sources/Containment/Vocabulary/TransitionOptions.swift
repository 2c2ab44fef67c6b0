/// How a transition animates.
///
/// The runtime is headless, so these only travel with the transition's
/// `transitionBegan` event, for whoever draws or logs the tree; they never
/// change hook order or timing (timing is `duration` on the tree's clock).
public struct TransitionOptions: OptionSet, Sendable, Hashable, Codable, CustomStringConvertible {
  /// The option bits.
  public let rawValue: UInt
  /// Options from their bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// The new view fades in over the old one (UIKit's `.transitionCrossDissolve`).
  public static let crossDissolve = TransitionOptions(rawValue: 1 << 0)
  /// The container flips from the left (UIKit's `.transitionFlipFromLeft`).
  public static let flipFromLeft = TransitionOptions(rawValue: 1 << 1)
  /// The container flips from the right (UIKit's `.transitionFlipFromRight`).
  public static let flipFromRight = TransitionOptions(rawValue: 1 << 2)
  /// Ease in and out (UIKit's `.curveEaseInOut`).
  public static let curveEaseInOut = TransitionOptions(rawValue: 1 << 3)

  /// The options' names, joined by "+" ("crossDissolve+curveEaseInOut").
  public var description: String {
    let names: [(TransitionOptions, String)] = [
      (.crossDissolve, "crossDissolve"), (.flipFromLeft, "flipFromLeft"), (.flipFromRight, "flipFromRight"),
      (.curveEaseInOut, "curveEaseInOut"),
    ]
    let known = names.filter { contains($0.0) }.map(\.1)
    let unknown = subtracting(names.reduce(into: TransitionOptions()) { $0.formUnion($1.0) })
    return (known + (unknown.isEmpty ? [] : ["0x" + String(unknown.rawValue, radix: 16)])).joined(separator: "+")
  }
}
