import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Waits for SIGTERM or SIGINT, the way a server under an orchestrator is
/// asked to stop: the signals' default action (ending the process at once)
/// is turned off, and a dispatch source resumes the waiting task.
enum Termination {
  /// Suspends until SIGTERM or SIGINT arrives; returns its name.
  static func wait() async -> String {
    let queue = DispatchQueue(label: "session-server.signals")
    var sources: [DispatchSourceSignal] = []
    let name = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
      let once = Once(continuation)
      for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { once.resume(returning: name) }
        source.resume()
        sources.append(source)
      }
      print("session-server: serving; waiting for SIGTERM or SIGINT (pid \(getpid()))")
      fflush(nil)
    }
    for source in sources { source.cancel() }
    return name
  }

  /// Resumes a continuation at most once (after the lock is released).
  private final class Once: Sendable {
    private let continuation: Mutex<CheckedContinuation<String, Never>?>
    init(_ continuation: CheckedContinuation<String, Never>) { self.continuation = Mutex(continuation) }
    func resume(returning name: String) {
      let taken = continuation.withLock { continuation in
        defer { continuation = nil }
        return continuation
      }
      taken?.resume(returning: name)
    }
  }
}
