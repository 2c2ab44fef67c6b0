/// What one epoch of a check performs on a fresh container: bursts of
/// concurrent operations, one burst after the other.
///
/// A ``ContainerChecker`` run generates schedules at random from its seed;
/// a failure is reduced to a short schedule, which
/// ``ContainerChecker/check(_:interleaving:)`` runs again:
///
/// ```swift
/// let schedule = ContainerSchedule([
///   ScheduledBurst([
///     [.perform("tap second")],
///     [.perform("tap first", animated: true)],
///   ])
/// ])
/// ```
public struct ContainerSchedule: Sendable, Hashable, CustomStringConvertible {
  /// The bursts, in order; each starts once the one before it is over.
  public var bursts: [ScheduledBurst]

  /// A schedule of `bursts`.
  public init(_ bursts: [ScheduledBurst]) {
    self.bursts = bursts
  }

  /// How many operations the schedule performs.
  public var operationCount: Int { bursts.reduce(0) { $0 + $1.operationCount } }

  /// How many lanes the widest burst has.
  public var width: Int { bursts.map(\.lanes.count).max() ?? 0 }

  /// One burst per line.
  public var description: String {
    bursts.enumerated().map { "burst \($0.offset + 1): \($0.element)" }.joined(separator: "\n")
  }

  /// The Swift expression that builds this schedule, indented by `indent`
  /// spaces after its first line, for generated tests.
  func source(indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    var lines = ["ContainerSchedule(["]
    for burst in bursts {
      lines.append("\(pad)  ScheduledBurst([")
      for lane in burst.lanes {
        lines.append("\(pad)    [\(lane.map(\.source).joined(separator: ", "))],")
      }
      lines.append("\(pad)  ]),")
    }
    lines.append("\(pad)])")
    return lines.joined(separator: "\n")
  }
}
