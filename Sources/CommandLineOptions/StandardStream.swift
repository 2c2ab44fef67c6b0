#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output or standard error, written without Foundation.
package enum StandardStream: Hashable, Sendable {
  /// Where results go: what a script reads.
  case output
  /// Where diagnostics go: usage errors, progress.
  case error

  /// Writes `text` as it is (add the newline yourself).
  ///
  /// The C streams are flushed first, so that what `print` wrote earlier comes
  /// first.
  package func write(_ text: String) {
    fflush(nil)
    writeAll(text, to: self == .output ? 1 : 2)
  }
}

/// `write(2)` until every byte of `text` is written or the descriptor fails.
private func writeAll(_ text: String, to descriptor: Int32) {
  var text = text
  text.withUTF8 { bytes in
    var rest = UnsafeRawBufferPointer(bytes)
    while !rest.isEmpty {
      let written = write(descriptor, rest.baseAddress, rest.count)
      guard written > 0 else { return }
      rest = UnsafeRawBufferPointer(rebasing: rest[written...])
    }
  }
}
