import CommandLineOptions
import Foundation
import Testing

/// A tool's options, to test the reading every executable shares.
private struct SampleOptions: ToolOptions, Equatable {
  enum Mode: String, CaseIterable { case fast, slow }

  static let toolName = "sample"
  static let usage = "usage: sample [--count N] [--seconds S] [--mode fast|slow] [--modes M,M] [--path FILE] [--json]"

  var count = 0
  var seconds = 1.0
  var mode = Mode.fast
  var modes: Set<Mode> = []
  var path: String?
  var json = false

  mutating func apply(_ flag: String, from arguments: inout ArgumentCursor) throws(UsageError) {
    switch flag {
    case "--count": count = try arguments.count(of: flag, atLeast: 1)
    case "--seconds": seconds = try arguments.seconds(of: flag)
    case "--mode": mode = try arguments.choice(of: flag)
    case "--modes": modes = try arguments.choices(of: flag)
    case "--path": path = try arguments.value(of: flag, "a path")
    case "--json": json = true
    default: throw .unknownFlag(flag)
    }
  }
}

/// What `arguments` make a tool do: the options it runs with, or how it exits.
private enum Outcome: Equatable {
  case run(SampleOptions)
  case exit(EarlyExit)

  init(_ arguments: [String]) {
    switch SampleOptions.invocation(arguments) {
    case .run(let options): self = .run(options)
    case .exit(let early): self = .exit(early)
    }
  }
}

/// The usage error `message` as every tool prints it: on standard error,
/// the message then the usage, status 64.
private func usageError(_ message: String) -> Outcome {
  .exit(EarlyExit(status: .usage, stream: .error, text: "sample: \(message)\n\(SampleOptions.usage)\n"))
}

@Suite struct CommandLineReading {
  @Test func flagsAndTheirValuesSetTheOptions() {
    let arguments = ["--count", "3", "--seconds", "0.5", "--mode", "slow", "--modes", "fast,slow", "--path", "t.svg"]
    let expected = SampleOptions(count: 3, seconds: 0.5, mode: .slow, modes: [.fast, .slow], path: "t.svg")
    #expect(Outcome(arguments + ["--json"]) == .run(SampleOptions(expected, json: true)))
    #expect(Outcome([]) == .run(SampleOptions()))
  }

  @Test(arguments: [["--help"], ["-h"], ["--json", "--help"], ["--help", "--bogus"]])
  func helpPrintsTheUsageToStandardOutputAndExitsZero(_ arguments: [String]) {
    #expect(Outcome(arguments) == .exit(EarlyExit(status: .success, stream: .output, text: SampleOptions.usage + "\n")))
    #expect(ExitStatus.success.code == 0)
  }

  @Test func anUnknownFlagIsAUsageErrorWithStatus64() {
    #expect(Outcome(["--bogus"]) == usageError("unknown argument --bogus"))
    #expect(Outcome(["--json", "bogus"]) == usageError("unknown argument bogus"))
    #expect(Outcome(["--bogus", "--help"]) == usageError("unknown argument --bogus"))
    #expect(ExitStatus.usage.code == 64)
  }

  @Test func aMissingValueIsAUsageError() {
    #expect(Outcome(["--path"]) == usageError("--path needs a path"))
    #expect(Outcome(["--count"]) == usageError("--count needs a whole number of at least 1"))
    // A flag is never taken as a value.
    #expect(Outcome(["--path", "--json"]) == usageError("--path needs a path"))
  }

  @Test func aBadValueIsAUsageError() {
    #expect(Outcome(["--count", "0"]) == usageError("--count: 0 is not a whole number of at least 1"))
    #expect(Outcome(["--count", "three"]) == usageError("--count: three is not a whole number of at least 1"))
    #expect(Outcome(["--seconds", "-1"]) == usageError("--seconds: -1 is not a duration in seconds"))
    #expect(Outcome(["--seconds", "inf"]) == usageError("--seconds: inf is not a duration in seconds"))
    #expect(Outcome(["--mode", "medium"]) == usageError("--mode: medium is not one of fast, slow"))
    #expect(Outcome(["--modes", "fast,medium"]) == usageError("--modes: medium is not one of fast, slow"))
    #expect(Outcome(["--modes", ","]) == usageError("--modes: , is not a comma-separated list"))
  }
}

extension SampleOptions {
  init(count: Int, seconds: Double, mode: Mode, modes: Set<Mode>, path: String?) {
    self.init()
    (self.count, self.seconds, self.mode, self.modes, self.path) = (count, seconds, mode, modes, path)
  }

  init(_ options: SampleOptions, json: Bool) {
    self = options
    self.json = json
  }
}

/// The package's executables, run as processes.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CommandLineTools {
  static let tools = ["containment-stress", "containment-bench", "event-stream-consumer", "two-tab", "session-server"]

  @Test(arguments: tools)
  func helpPrintsTheUsageAndRunsNothing(_ tool: String) async throws {
    for flag in ["--help", "-h"] {
      let run = try await ToolRun(tool, [flag])
      #expect(run.status == 0)
      #expect(run.standardOutput.hasPrefix("usage: \(tool)"))
      #expect(run.standardOutput.contains("--help, -h"))
      #expect(run.standardError == "")
    }
  }

  @Test(arguments: tools)
  func anUnknownFlagExits64WithTheUsageOnStandardError(_ tool: String) async throws {
    let run = try await ToolRun(tool, ["--bogus"])
    #expect(run.status == 64)
    #expect(run.standardOutput == "")
    #expect(run.standardError.hasPrefix("\(tool): unknown argument --bogus\nusage: \(tool)"))
  }

  @Test(arguments: [
    ("containment-stress", ["--seconds", "soon"], "--seconds: soon is not a duration in seconds"),
    ("containment-stress", ["--seed", "0xg"], "--seed: 0xg is not a seed (0x hex or decimal)"),
    ("containment-bench", ["--reps", "0"], "--reps: 0 is not a whole number of at least 1"),
    ("event-stream-consumer", ["--svg"], "--svg needs a file path"),
    ("event-stream-consumer", ["--svg", "--json"], "--svg needs a file path"),
    ("two-tab", ["--concurrent"], "--concurrent needs a whole number of at least 1"),
    ("session-server", ["--sessions", "0"], "--sessions: 0 is not a whole number of at least 1"),
  ])
  func aMissingOrBadValueExits64(_ tool: String, _ arguments: [String], _ message: String) async throws {
    let run = try await ToolRun(tool, arguments)
    #expect(run.status == 64)
    #expect(run.standardOutput == "")
    #expect(run.standardError.hasPrefix("\(tool): \(message)\nusage: \(tool)"))
  }

  /// `--json`: standard output is one JSON document, the seed in it the
  /// `0x` hex the text report shows; the summary line is on standard error.
  @Test(arguments: ["0x2a", "42"])
  func stressJSONIsOneDocumentWithTheSeedInHex(_ seed: String) async throws {
    let arguments = [
      "--operations", "40", "--kinds", "add,remove,move", "--tasks", "2", "--trees", "1",
      "--reduce-seconds", "0", "--quiet", "--json", "--seed", seed,
    ]
    let run = try await ToolRun("containment-stress", arguments)
    #expect(run.status == 0, "\(run.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    let report = try #require(document as? [String: Any])
    #expect(report["seed"] as? String == "0x2a")
    #expect(report["operations"] as? Int == 40)
    #expect(report["violations"] as? Int == 0)
    #expect(run.standardError == "stress: 40 operations, 0 violations, 0 deadlocks, 0 leaks\n")
  }
}
