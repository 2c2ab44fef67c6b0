/// A failure reduced to a short schedule, and a Swift Testing test that runs it.
public struct Reproduction: Sendable, CustomStringConvertible {
  /// The reduced schedule.
  public let schedule: ContainerSchedule
  /// The interleaving it fails with.
  public let interleaving: Interleaving
  /// What it finds.
  public let finding: CheckFinding
  /// Whether running it twice more gave the same finding both times.
  public let isDeterministic: Bool
  /// How many schedules the reducer ran.
  public let trials: Int
  /// A test, ready to paste into a test target that can see your checker
  /// (under the name given as the checker's `reference`): it runs the schedule
  /// with ``ContainerChecker/check(_:interleaving:)`` and expects no finding,
  /// so it fails until the container is fixed.
  public let testSource: String

  /// The finding, the schedule and the test.
  public var description: String {
    """
    \(finding)
    reduced in \(trials) trials to \(schedule.operationCount) operation(s), \(interleaving)\(isDeterministic ? "" : " (not deterministic)"):
    \(schedule)

    \(testSource)
    """
  }
}
