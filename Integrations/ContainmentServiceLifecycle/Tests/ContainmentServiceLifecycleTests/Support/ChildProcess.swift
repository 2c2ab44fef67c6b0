import Foundation
import Synchronization

/// A child process whose standard output a test reads line by line as the
/// process writes it: no sleeps, and every read bounded by a number of
/// lines (a child that stops writing ends the read at end of file, a child
/// that hangs is ended by the test's time limit).
///
/// Each output pipe is read by a thread of its own (blocking reads, off the
/// cooperative pool): standard output into the lines the test reads,
/// standard error into ``standardError`` (for failure messages). Used by one
/// task at a time.
final class ChildProcess {
  /// How a child process ended.
  struct Exit: Equatable, CustomStringConvertible {
    /// `true` if it exited, `false` if a signal it did not handle ended it.
    var exited: Bool
    /// Its exit status, or the signal's number.
    var status: Int32

    var description: String { exited ? "exit \(status)" : "signal \(status)" }
  }

  /// Text that several threads append to.
  private final class Text: Sendable {
    private let text = Mutex("")
    var value: String { text.withLock { $0 } }
    func append(_ more: String) { text.withLock { $0 += more } }
  }

  private var lines: AsyncStream<String>.AsyncIterator
  private var exits: AsyncStream<Exit>.AsyncIterator
  private let errors = Text()
  private let process: Process

  /// Starts `executable` with `arguments`.
  ///
  /// Throws if it cannot be started.
  init(_ executable: URL, arguments: [String] = []) throws {
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let errorOutput = Pipe()
    process.standardOutput = output
    process.standardError = errorOutput
    process.standardInput = FileHandle.nullDevice

    let (lineStream, lineSink) = AsyncStream.makeStream(of: String.self)
    let (exitStream, exitSink) = AsyncStream.makeStream(of: Exit.self)
    lines = lineStream.makeAsyncIterator()
    exits = exitStream.makeAsyncIterator()
    process.terminationHandler = { process in
      exitSink.yield(Exit(exited: process.terminationReason == .exit, status: process.terminationStatus))
      exitSink.finish()
    }
    try process.run()

    Self.read(output.fileHandleForReading) {
      lineSink.yield($0)
    } atEnd: {
      lineSink.finish()
    }
    Self.read(errorOutput.fileHandleForReading) { [errors] in
      errors.append($0 + "\n")
    } atEnd: {
    }
  }

  deinit {
    // A test that failed half-way leaves no process behind.
    if process.isRunning { process.terminate() }
  }

  /// Everything the child wrote to standard error so far.
  var standardError: String { errors.value }

  /// Reads lines until one equals `last` (included), `bound` lines were read
  /// or the output ended; returns them.
  func lines(through last: String, atMost bound: Int) async -> [String] {
    var read: [String] = []
    while read.count < bound, let line = await lines.next() {
      read.append(line)
      if line == last { break }
    }
    return read
  }

  /// Reads the lines left until the output ends, at most `bound` of them.
  func remainingLines(atMost bound: Int) async -> [String] {
    var read: [String] = []
    while read.count < bound, let line = await lines.next() { read.append(line) }
    return read
  }

  /// Sends `signal` to the child.
  func send(_ signal: Int32) {
    kill(process.processIdentifier, signal)
  }

  /// Waits until the child has ended; how it ended.
  func exit() async -> Exit? {
    await exits.next()
  }

  /// Reads `handle` on a thread of its own until end of file, handing each
  /// complete line to `receive` (then an unterminated last one), then calls `atEnd`.
  private static func read(
    _ handle: FileHandle, _ receive: @escaping @Sendable (String) -> Void, atEnd: @escaping @Sendable () -> Void
  ) {
    Thread.detachNewThread {
      var pending = Data()
      // `availableData` returns what the pipe holds as soon as it holds something; empty at end of file.
      while case let chunk = handle.availableData, !chunk.isEmpty {
        pending.append(chunk)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          receive(String(decoding: pending[..<newline], as: UTF8.self))
          pending = Data(pending[pending.index(after: newline)...])
        }
      }
      if !pending.isEmpty { receive(String(decoding: pending, as: UTF8.self)) }
      atEnd()
    }
  }
}
