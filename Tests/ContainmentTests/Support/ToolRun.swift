import Foundation

/// One run of one of the package's executables, as a process: its exit
/// status and everything it printed.
///
/// The executables are found in the build products directory, beside the
/// test bundle: `swift test` builds every product of the package, the
/// executables included, before it runs a test. A missing executable fails
/// the test that runs it (it is never skipped).
struct ToolRun {
  let status: Int32
  let standardOutput: String
  let standardError: String

  /// Runs `tool` with `arguments` and waits for it to exit (without blocking
  /// a thread: the process's termination resumes the caller).
  init(_ tool: String, _ arguments: [String]) async throws {
    let executable = Self.productsDirectory.appendingPathComponent(tool)
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
      throw MissingExecutable(path: executable.path)
    }
    // Files rather than pipes: a child that fills a pipe nobody reads yet
    // would never exit.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ToolRun-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorURL = scratch.appendingPathComponent("stderr")
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = error
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      process.terminationHandler = { _ in continuation.resume() }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    try output.close()
    try error.close()
    status = process.terminationStatus
    standardOutput = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
    standardError = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
    try FileManager.default.removeItem(at: scratch)
  }

  /// The directory the build puts the products in: the test bundle's
  /// (macOS: the directory holding the `.xctest` bundle; Linux: the test
  /// executable's own directory).
  static var productsDirectory: URL {
    let bundle = Bundle(for: BundleMarker.self).bundleURL
    return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
  }

  struct MissingExecutable: Error, CustomStringConvertible {
    let path: String
    var description: String {
      "\(path) does not exist: build the package's executables first (`swift test` and `swift build` do)"
    }
  }
}

/// A class of the test module, to find its bundle.
private final class BundleMarker {}
