/// What a ``ContainerChecker`` run did and found.
public struct ContainerCheckReport: Sendable, CustomStringConvertible {
  /// The checker's name.
  public let container: String
  /// The configuration's seed.
  public let seed: UInt64
  /// Operations performed (each burst's, in every epoch).
  public let operations: Int
  /// Epochs run (fresh containers).
  public let epochs: Int
  /// Bursts run (quiescent points checked).
  public let bursts: Int
  /// Operations replayed one at a time by the linearizability search.
  public let replayedOperations: Int
  /// Bursts the search could not explain within its bound, nor refute.
  public let inconclusiveBursts: Int
  /// Wall time of the run, without the reduction.
  public let elapsed: Duration
  /// Findings, in the order found (the first 20).
  public let findings: [CheckFinding]
  /// The schedule of the first epoch that failed, as the run generated it,
  /// up to the burst that failed.
  public let failingSchedule: ContainerSchedule?
  /// The first failure, reduced, with a test that reproduces it.
  public let reproduction: Reproduction?

  /// True when nothing was found.
  public var passed: Bool { findings.isEmpty }

  /// Operations per second of wall time.
  public var operationsPerSecond: Double {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(operations) / max(seconds, 1e-9)
  }

  /// A summary, the findings and the reproduction.
  public var description: String {
    var lines = [
      "\(container): \(operations) operations in \(epochs) epochs, \(bursts) bursts (seed \(hex(seed))); "
        + "\(replayedOperations) replayed, \(inconclusiveBursts) inconclusive; \(Int(operationsPerSecond)) operations/s"
    ]
    lines += findings.isEmpty ? ["no findings"] : findings.map { "  \($0)" }
    if let reproduction { lines.append(reproduction.description) }
    return lines.joined(separator: "\n")
  }
}
