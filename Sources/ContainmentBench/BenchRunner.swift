#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the selected groups in order and collects the report.
///
/// Runs on the global executor (not the main actor), like a server; the main
/// thread stays free to drain the main actor's jobs for the reference design.
struct BenchRunner: Sendable {
  let options: BenchOptions

  func run() async -> BenchReport {
    let before = Self.machineState()
    let watch = Stopwatch()
    let sampler = Sampler(repetitions: options.reps, filter: options.filter)
    var figures: [Figure] = []
    var failures: [String] = []
    for group in BenchGroup.allCases where options.groups.contains(group) {
      Self.progress("running \(group.rawValue)...")
      let groupWatch = Stopwatch()
      do {
        let produced = try await run(group, sampler).filter { !$0.samples.isEmpty }
        figures += produced
        for figure in produced {
          Self.progress(
            "  \(figure.key): \(NumberFormatting.readable(figure.median, unit: figure.unit))")
        }
      } catch {
        failures.append("\(group.rawValue): \(error)")
        Self.progress("  FAILED: \(error)")
      }
      Self.progress("  (\(NumberFormatting.readable(groupWatch.elapsed.nanoseconds / 1e9, unit: .seconds)))")
    }
    return BenchReport(
      options: options, machine: before, machineAfter: Self.machineState(), figures: figures, failures: failures,
      seconds: watch.elapsed.nanoseconds / 1e9)
  }

  private func run(_ group: BenchGroup, _ sampler: Sampler) async throws -> [Figure] {
    switch group {
    case .memory: await MemoryFootprint.run(options: options)
    case .primitives: await RawPrimitives.run(sampler, options: options)
    case .runtime: try await RuntimeOperations.run(sampler, options: options)
    case .events: try await EventDelivery.run(sampler, options: options)
    case .reference: try await ReferenceBenchmarks.run(sampler, options: options)
    case .scaling: try await ScalingBenchmarks.run(sampler, options: options)
    case .tree: try await TreeAppearance.run(sampler, options: options)
    }
  }

  static func machineState() -> MachineState {
    var loads = [Double](repeating: 0, count: 3)
    let count = getloadavg(&loads, 3)
    return MachineState(
      cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), load: count > 0 ? Array(loads.prefix(Int(count))) : [])
  }

  /// A line on standard error, so that standard output holds only the result.
  static func progress(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }
}
