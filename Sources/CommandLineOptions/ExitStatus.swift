/// The status a tool's process exits with.
///
/// The tools of this package share three: ``success`` (the run found
/// nothing wrong, or `--help` was asked for), ``failure`` (the run found a
/// problem) and ``usage`` (the command line was wrong; nothing ran).
package struct ExitStatus: Hashable, Sendable, CustomStringConvertible {
  /// The number the process exits with.
  package let code: Int32

  package init(code: Int32) { self.code = code }

  /// 0: the run found nothing wrong, or the usage was printed on request.
  package static let success = ExitStatus(code: 0)
  /// 1: the run found a problem.
  package static let failure = ExitStatus(code: 1)
  /// 64 (`EX_USAGE` of sysexits.h): the command line was wrong; nothing ran.
  package static let usage = ExitStatus(code: 64)

  package var description: String { "\(code)" }
}
