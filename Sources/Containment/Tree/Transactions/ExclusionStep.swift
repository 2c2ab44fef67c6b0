import Synchronization

/// What a waiting top-level transaction is told when it resumes.
enum ExclusionStep: Sendable {
  case admitted(ExclusionAdmission)
  /// Something changed: check again.
  case retry
  case cancelled
}
