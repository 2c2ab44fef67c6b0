#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's memory use, for the memory-per-controller figure.
///
/// Linux: resident set size from `/proc/self/statm`. Elsewhere nil, and the
/// memory figure is reported as not measured.
enum ProcessMemory {
  /// Resident set size in bytes, or nil where `/proc/self/statm` is missing.
  static func residentBytes() -> Int? {
    #if os(Linux)
      guard let file = fopen("/proc/self/statm", "r") else { return nil }
      defer { fclose(file) }
      var buffer = [CChar](repeating: 0, count: 128)
      guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
      let fields = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .split(separator: " ")
      guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return nil
    #endif
  }
}
