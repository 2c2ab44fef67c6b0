/// How the concurrent operations of a check are scheduled onto threads.
public struct Interleaving: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable, Hashable {
    case threads
    case seeded(UInt64)
  }
  let kind: Kind

  /// The global concurrent executor: operations run in parallel on every
  /// core and interleave as the machine happens to schedule them.
  ///
  /// Finds what only real parallelism shows; a failure may not come back on the
  /// next run.
  public static let threads = Interleaving(kind: .threads)

  /// One thread that picks the next step of the concurrent tasks at random
  /// with `seed`: the same schedule and seed interleave the same way every
  /// time (as long as the operations wait only on the runtime's queues and
  /// the manual clock), so a failure found this way reproduces.
  public static func seeded(_ seed: UInt64) -> Interleaving { Interleaving(kind: .seeded(seed)) }

  /// `threads` or `seeded(0x…)`.
  public var description: String {
    switch kind {
    case .threads: "threads"
    case .seeded(let seed): "seeded(\(hex(seed)))"
    }
  }

  /// The Swift expression for this value, for generated tests.
  var source: String {
    switch kind {
    case .threads: ".threads"
    case .seeded(let seed): ".seeded(\(hex(seed)))"
    }
  }
}

/// `0x` and the hexadecimal digits of `value`.
func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16, uppercase: true) }
