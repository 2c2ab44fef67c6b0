import CommandLineOptions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// containment-bench: the cost of every runtime operation against Swift's own
// primitives and against a UIKit-style @MainActor design, measured side by
// side in one run. Build with `-c release`. See BENCHMARKS.md.
//
// Top-level `await` makes this an async main: the main thread drains the
// main actor, which the @MainActor reference design needs on Linux.

let options = BenchOptions.parseOrExit()

#if DEBUG
  BenchRunner.progress(
    "warning: debug build; figures are meaningless. Use: swift build -c release --product containment-bench")
#endif

let report = await BenchRunner(options: options).run()
print(options.json ? JSONRenderer.render(report) : TableRenderer.render(report))
print(report.summaryLine)
exit(report.failures.isEmpty ? 0 : 1)
