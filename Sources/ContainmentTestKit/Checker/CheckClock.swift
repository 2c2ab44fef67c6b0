import Containment

/// The clock a check's containers run on (their `ContainmentEnvironment`'s
/// clock: the time animated transitions take).
public struct CheckClock: Sendable {
  enum Kind: Sendable {
    case manual
    case continuous
  }
  let kind: Kind

  /// A ``ManualClock`` that the checker advances, by a random step, whenever
  /// a task sleeps on it: animations take no real time, and requests that
  /// arrive meanwhile queue behind them.
  ///
  /// The default; schedules checked with
  /// ``ContainerChecker/check(_:interleaving:)`` always use it.
  public static let manual = CheckClock(kind: .manual)

  /// The continuous clock: animations take the real time they ask for.
  public static let continuous = CheckClock(kind: .continuous)
}
