/// An error of ``ContainmentService`` itself (the tree's own errors are
/// `ContainmentError`s). A small value with static members, so that a later
/// case does not break a consumer's `switch`.
public struct ContainmentServiceError: Error, Hashable, CustomStringConvertible {
  private enum Code: Hashable {
    case alreadyStarted, stopped
  }
  private let code: Code

  /// ``ContainmentService/run()`` was called again: a service runs once (its
  /// window is torn down when the first run ends).
  public static let alreadyStarted = ContainmentServiceError(code: .alreadyStarted)
  /// ``ContainmentService/ready()`` gave up: the service stopped — a graceful
  /// shutdown or a cancellation was asked for, or ``ContainmentService/run()``
  /// ended — or its tree was torn down, before the tree was ready.
  public static let stopped = ContainmentServiceError(code: .stopped)

  /// The error's name.
  public var description: String {
    switch code {
    case .alreadyStarted: "alreadyStarted"
    case .stopped: "stopped"
    }
  }
}
