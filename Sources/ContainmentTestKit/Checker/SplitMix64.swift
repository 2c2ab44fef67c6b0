/// A small, seedable pseudo-random generator (SplitMix64): every random
/// choice of a check (and of a stress run) derives from its seed, so a seed
/// names a workload.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A generator for a sub-stream (an epoch, a worker, a phase), independent of this one.
  package func derived(_ salt: UInt64) -> SplitMix64 {
    var copy = SplitMix64(seed: state ^ (salt &* 0xD6E8_FEB8_6659_FD93))
    _ = copy.next()
    return copy
  }

  /// True with probability `probability`.
  package mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) / Double(1 << 53) < probability
  }

  /// One of `items`, nil if there are none.
  package mutating func pick<T>(_ items: [T]) -> T? {
    items.isEmpty ? nil : items[below(items.count)]
  }

  /// A number in `0..<bound` (0 when `bound` is not positive).
  package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

  /// A number in `range`.
  package mutating func within(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
}
