/// How long a ``ContainerChecker`` run goes on.
public struct CheckLength: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable, Hashable {
    case operations(Int)
    case duration(Duration)
  }
  let kind: Kind

  /// Until `count` operations have been performed (the last epoch is cut to fit).
  public static func operations(_ count: Int) -> CheckLength { CheckLength(kind: .operations(max(0, count))) }

  /// Until `duration` of wall time has passed (checked between epochs, so a
  /// run ends within one epoch of it, plus the reduction of a failure).
  public static func duration(_ duration: Duration) -> CheckLength { CheckLength(kind: .duration(duration)) }

  /// The length in readable form, for example `1000 operations` or `2.0 seconds`.
  public var description: String {
    switch kind {
    case .operations(let count): "\(count) operations"
    case .duration(let duration): "\(duration)"
    }
  }
}
