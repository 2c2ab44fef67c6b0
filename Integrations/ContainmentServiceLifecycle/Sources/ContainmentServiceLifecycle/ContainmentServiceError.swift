import Containment

/// An error of ``ContainmentService`` itself (the tree's own errors are
/// `ContainmentError`s).
///
/// A small value with static members, so that a later
/// case does not break a consumer's `switch`.
public struct ContainmentServiceError: Error, Hashable, CustomStringConvertible {
  private enum Code: Hashable {
    case alreadyStarted, stopped
    case treeTornDown(ControllerID)
  }
  private let code: Code

  /// ``ContainmentService/run()`` was called again: a service runs once (its
  /// window is torn down when the first run ends).
  public static let alreadyStarted = ContainmentServiceError(code: .alreadyStarted)
  /// ``ContainmentService/ready()`` gave up: the service stopped — a graceful
  /// shutdown or a cancellation was asked for, or ``ContainmentService/run()``
  /// ended — or its tree was torn down, before the tree was ready.
  public static let stopped = ContainmentServiceError(code: .stopped)

  /// The tree of the root controller `root` was torn down while the service
  /// ran, by something else than the service's own shutdown: the fault
  /// policy `FaultPolicy.tearDownTree`, or a call to `Window.tearDown()`.
  ///
  /// ``ContainmentService/run()`` throws it once the teardown is over.
  public static func treeTornDown(_ root: ControllerID) -> ContainmentServiceError {
    ContainmentServiceError(code: .treeTornDown(root))
  }

  /// The error's name, and the root's id for ``treeTornDown(_:)``.
  public var description: String {
    switch code {
    case .alreadyStarted: "alreadyStarted"
    case .stopped: "stopped"
    case .treeTornDown(let root): "treeTornDown(\(root))"
    }
  }
}
