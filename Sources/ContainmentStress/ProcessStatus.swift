import Containment
import ContainmentLocking
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the process costs: resident memory and CPU time (no Foundation).
enum ProcessStatus {
  /// Resident memory now and its peak over the process's life, in bytes
  /// (`VmRSS` and `VmHWM` of /proc/self/status); nil where there is no /proc.
  static func memory() -> (resident: Int, peak: Int)? {
    let descriptor = open("/proc/self/status", O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 4096)
    var text = ""
    while true {
      let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      text += String(decoding: bytes[0..<count], as: UTF8.self)
    }
    var resident: Int?
    var peak: Int?
    for line in text.split(separator: "\n") {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
      if fields[0] == "VmRSS:" { resident = kilobytes * 1024 }
      if fields[0] == "VmHWM:" { peak = kilobytes * 1024 }
    }
    guard let resident, let peak else { return nil }
    return (resident, peak)
  }

  /// CPU time the whole machine has been busy (every core, every process:
  /// the `cpu` line of /proc/stat less idle and iowait), and its cores; nil
  /// where there is no /proc.
  static func machineBusy() -> (busy: Duration, cores: Int)? {
    let descriptor = open("/proc/stat", O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 512)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0, let line = String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n").first
    else { return nil }
    // cpu user nice system idle iowait irq softirq steal ...
    let ticks = line.split(separator: " ").dropFirst().compactMap { Int($0) }
    guard ticks.count >= 8 else { return nil }
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
    let perSecond = max(1, sysconf(Int32(_SC_CLK_TCK)))
    let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    return (.milliseconds(busy * 1000 / perSecond), cores)
  }

  /// The share of the machine (0...1 of all its cores) that other processes
  /// used between two readings of `machineBusy` taken `wall` apart, while
  /// this process used `own` CPU time.
  static func othersShare(
    from start: (busy: Duration, cores: Int)?, to end: (busy: Duration, cores: Int)?, own: Duration, wall: Duration
  ) -> Double? {
    guard let start, let end, wall > .zero else { return nil }
    let others = (end.busy - start.busy - own).seconds / (Double(end.cores) * wall.seconds)
    return min(1, max(0, others))
  }

  /// CPU time the process has used, all threads together.
  static func cpuTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }
}

extension ProcessStatus {
  /// Hands the heap's free pages back to the system (glibc's `malloc_trim`,
  /// looked up at run time: nothing elsewhere).
  ///
  /// glibc keeps what is freed in its arenas, and a heap that churns through
  /// tens of megabytes an epoch (the harness's epochs) otherwise holds several
  /// times its live size, more as the run goes on; its resident memory would
  /// then say nothing of what the run keeps alive.
  static func releaseFreeMemory() {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      guard let trim = mallocTrim.map({ unsafeBitCast($0, to: Trim.self) }) else { return }
      _ = trim(0)
    #endif
  }

  #if canImport(Glibc)
    nonisolated(unsafe) private static let mallocTrim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
  #endif
}

/// `n` bytes for people: "312 MB".
func megabytes(_ bytes: Int) -> String { "\(bytes / (1 << 20)) MB" }

/// Ctrl-C: the first stops the workload (what was recorded is still checked
/// and reported), a second ends the process at once.
enum Interruption {
  private static let state = Locked(false)
  nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

  static var requested: Bool { state.withLock { $0 } }

  /// Handles SIGINT from now on (Dispatch's signal source, not a C handler).
  static func install(quiet: Bool) {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
      let again = state.withLock { requested in
        defer { requested = true }
        return requested
      }
      if again {
        Terminal.error("\ninterrupted again: exiting without a report\n")
        _exit(130)
      }
      if !quiet {
        Terminal.error(
          "\ninterrupted: stopping the workload, then checking what was recorded (Ctrl-C again to exit now)\n")
      }
    }
    source.resume()
    Self.source = source
  }
}
