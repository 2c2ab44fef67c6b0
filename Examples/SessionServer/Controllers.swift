import Containment
import Synchronization

/// A screen of a session: an entry of its navigation stack or a presented
/// sheet. Its hooks are the defaults, which return at once.
actor Screen: ViewController {
  nonisolated let node: ControllerNode

  init(_ name: String) { node = ControllerNode(name: name) }
}

/// The panel a session shows beside its navigation stack. Its
/// `viewWillAppear` loads the panel's content from a backend and returns when
/// the backend answers: a hook that can hang, which is what a hook deadline
/// is for.
actor Panel: ViewController {
  nonisolated let node = ControllerNode(name: "Panel")
  nonisolated let backend: Backend

  init(backend: Backend) { self.backend = backend }

  func viewWillAppear(_ animated: Bool) async { await backend.fetch() }
}

/// Where panels load their content from.
///
/// A healthy backend answers at once; a stuck one keeps every caller suspended
/// until ``release()``, the server's last step, so that no hook is left waiting
/// when the process ends. Not an actor: a lock-protected list of waiting
/// continuations.
final class Backend: Sendable {
  private struct State {
    var isReleased = false
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  static let healthy = Backend(stuck: false)

  private let isStuck: Bool
  private let state = Mutex(State())

  init(stuck: Bool) { isStuck = stuck }

  /// Answers at once, or, if the backend is stuck, not before `release()`.
  func fetch() async {
    guard isStuck else { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let answered = state.withLock { state -> Bool in
        if state.isReleased { return true }
        state.waiting.append(continuation)
        return false
      }
      if answered { continuation.resume() }
    }
  }

  /// Answers every caller, waiting or to come.
  func release() {
    let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isReleased = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}

/// A session's root: a custom container with the navigation stack on the
/// left and, once a request shows it, the panel on the right.
///
/// It keeps no list of its own children: the runtime's `children` is the
/// truth, because the supervisor may remove one at any time (a faulted
/// child, under the `isolate` policy).
actor SessionRoot: ViewController {
  nonisolated let node: ControllerNode

  init(name: String) { node = ControllerNode(name: name) }

  /// The UIKit three-step add, as one transaction on this container's
  /// queue: requests from the session's other client wait until it ends.
  ///
  /// With a hook deadline, a child's hung hook delays it by the deadline at
  /// most: the transaction goes on without that hook.
  nonisolated func show(_ child: any ViewController, in frame: Rect) async throws {
    try await withTransaction { _ in
      try await self.addChild(child)
      let childView = await child.view
      childView.frame = frame
      try await self.view.addSubview(childView)
      await child.didMove(toParent: self)
    }
  }
}
