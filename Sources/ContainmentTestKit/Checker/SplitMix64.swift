/// A small, seedable pseudo-random generator (SplitMix64): every random
/// choice of a check derives from its seed, so a seed names a workload.
struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A generator for a sub-stream (an epoch, a phase), independent of this one.
  func derived(_ salt: UInt64) -> SplitMix64 {
    var copy = SplitMix64(seed: state ^ (salt &* 0xD6E8_FEB8_6659_FD93))
    _ = copy.next()
    return copy
  }

  /// True with probability `probability`.
  mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) / Double(1 << 53) < probability
  }

  /// A number in `0..<bound` (0 when `bound` is not positive).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

  /// A number in `range`.
  mutating func within(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
}
