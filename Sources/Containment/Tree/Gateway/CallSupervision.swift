import Synchronization

/// Whether any environment supervises calls into user code (a hook
/// deadline, a stall warning or a teardown policy with a bound): until one
/// is made, the ``Gateway`` calls user code directly, without a watch.
///
/// Process-wide and one-way: once on, it stays on.
enum CallSupervision {
  private static let active = Atomic<Bool>(false)

  /// True once an environment that supervises calls was made.
  static var isActive: Bool { active.load(ordering: .relaxed) }

  /// Called by an environment that supervises calls, when it is made.
  static func activate() { active.store(true, ordering: .relaxed) }
}
