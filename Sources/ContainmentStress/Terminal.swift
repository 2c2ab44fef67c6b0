#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard error and terminal helpers (no Foundation).
enum Terminal {
  static var stdoutIsTerminal: Bool { isatty(1) != 0 }
  static var stderrIsTerminal: Bool { isatty(2) != 0 }

  static func error(_ text: String) {
    var line = text
    line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
  }

  static func flush() { fflush(nil) }
}
