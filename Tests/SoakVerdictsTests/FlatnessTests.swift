import Testing

@testable import SoakVerdicts

/// The flatness verdicts of long runs, on made-up samples (no clock, no process).
@Suite struct FlatnessTests {
  typealias Sample = Flatness.Sample
  static let megabyte = 1_048_576.0

  /// Samples every `every` seconds over `seconds`, valued `value(t)`.
  static func samples(seconds: Double, every: Double = 4, _ value: (Double) -> Double) -> [Sample] {
    stride(from: every, through: seconds, by: every).map { Sample(time: $0, value: value($0)) }
  }

  /// A deterministic noise in -1...1 (no random generator: the same numbers every run).
  static func noise(_ index: Int) -> Double {
    var x = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15
    x ^= x >> 29
    x = x &* 0xBF58_476D_1CE4_E5B9
    x ^= x >> 32
    return Double(x % 2001) / 1000 - 1
  }

  @Test func flatMemoryDoesNotGrow() throws {
    let samples = Self.samples(seconds: 3600) { _ in 300 * Self.megabyte }
    let verdict = try #require(Flatness.memory(samples))
    #expect(!verdict.grows)
    #expect(verdict.slopePerHour == 0)
  }

  @Test func memoryGrowingTenPercentAnHourGrows() throws {
    // 300 MB growing 30 MB an hour (10 %), with ±10 MB of noise epoch to epoch.
    var index = 0
    let samples = Self.samples(seconds: 3600) { t in
      index += 1
      return (300 + 30 * t / 3600 + 10 * Self.noise(index)) * Self.megabyte
    }
    var limits = Flatness.Limits()
    limits.growthFloor = 4 * Self.megabyte
    let verdict = try #require(Flatness.memory(samples, limits: limits))
    #expect(verdict.grows)
    #expect(abs(verdict.relativePerHour - 0.1) < 0.02)
  }

  @Test func theUsersHourGrows() throws {
    // The shape a user measured: 352 MB at minute 16, 413 at 26, 461 at 56.
    let samples = Self.samples(seconds: 3600) { t in
      let minutes = t / 60
      let mb =
        minutes < 16 ? 16 + minutes * 21 : minutes < 26 ? 352 + (minutes - 16) * 6.1 : 413 + (minutes - 26) * 1.6
      return mb * Self.megabyte
    }
    let verdict = try #require(Flatness.memory(samples))
    #expect(verdict.grows)
  }

  @Test func warmUpIsLeftOut() throws {
    // Climbs during the first 10 % of the run, flat after.
    let samples = Self.samples(seconds: 1200) { t in (t < 120 ? 50 + 2 * t : 290) * Self.megabyte }
    let verdict = try #require(Flatness.memory(samples))
    #expect(!verdict.grows)
  }

  @Test func aShortRunNeedsGrowthAboveTheFloor() throws {
    // 120 s growing 20 MB after the warm-up: 600 MB an hour, but under the floor.
    let samples = Self.samples(seconds: 120, every: 2) { t in (280 + 20 * t / 120) * Self.megabyte }
    let verdict = try #require(Flatness.memory(samples))
    #expect(verdict.slopePerHour > 0.05 * verdict.secondQuarter)
    #expect(verdict.allowed == Flatness.Limits().growthFloor)
    #expect(!verdict.grows)
    // Past the floor it is a finding at any length.
    let steep = Self.samples(seconds: 120, every: 2) { t in (280 + 200 * t / 120) * Self.megabyte }
    #expect(try #require(Flatness.memory(steep)).grows)
  }

  @Test func oneSpikeAtTheEndIsNotGrowth() throws {
    // Flat, with the last two samples 150 MB up (a burst): the medians and the slope ignore them.
    let samples = Self.samples(seconds: 600) { t in (t > 590 ? 450 : 300) * Self.megabyte }
    let verdict = try #require(Flatness.memory(samples))
    #expect(!verdict.grows)
  }

  @Test func tooFewSamplesGiveNoVerdict() {
    #expect(Flatness.memory(Self.samples(seconds: 20, every: 2) { _ in 1 }) == nil)
    #expect(Flatness.throughput(Self.samples(seconds: 20, every: 2) { _ in 1 }) == nil)
    #expect(Flatness.memory([]) == nil)
  }

  @Test func steadyThroughputDoesNotFall() throws {
    var index = 0
    let samples = Self.samples(seconds: 3600) { _ in
      index += 1
      return 5000 * (1 + 0.15 * Self.noise(index))
    }
    let verdict = try #require(Flatness.throughput(samples))
    #expect(!verdict.falls)
    // An hour of noisy epochs still allows only a little more than the limit.
    #expect(verdict.allowedDrop < 0.07)
  }

  @Test func throughputFallingThirteenPercentFalls() throws {
    // The user's hour: 4,998 → 4,346 ops/s (-13 %), noisy epochs.
    var index = 0
    let samples = Self.samples(seconds: 3600) { t in
      index += 1
      return (4998 - 652 * t / 3600) * (1 + 0.1 * Self.noise(index))
    }
    let verdict = try #require(Flatness.throughput(samples))
    #expect(verdict.falls)
    #expect(verdict.change < -0.08)
  }

  @Test func aShortNoisyRunGetsAWiderMargin() throws {
    // 120 s, an epoch every 2 s, ±30 % noise and a 10 % drop: within the noise.
    var index = 0
    let samples = Self.samples(seconds: 120, every: 2) { t in
      index += 1
      return (5000 - 500 * t / 120) * (1 + 0.3 * Self.noise(index))
    }
    let verdict = try #require(Flatness.throughput(samples))
    #expect(verdict.allowedDrop > 0.1)
    #expect(!verdict.falls)
    // A steady run that slows by a fifth in its second minute (the
    // machine drifting) is not a finding either; a halving is, even there.
    let drifting = Self.samples(seconds: 120, every: 2) { t in t < 60 ? 5000 : 4000 }
    #expect(try !#require(Flatness.throughput(drifting)).falls)
    let halved = Self.samples(seconds: 120, every: 2) { t in t < 60 ? 5000 : 2500 }
    #expect(try #require(Flatness.throughput(halved)).falls)
  }

  @Test func samplesTakenWhileOthersRanAreLeftOut() throws {
    // Steady at 5000/s, but the last third of the run shares the machine
    // with a build (others use 60 % of it) and runs at 3000/s meanwhile.
    let samples = Self.samples(seconds: 600) { t in t > 400 ? 3000 : 5000 }.map { sample in
      Sample(time: sample.time, value: sample.value, others: sample.time > 400 ? 0.6 : 0.02)
    }
    let verdict = try #require(Flatness.throughput(samples))
    #expect(!verdict.falls)
    #expect(verdict.lastQuarter == 5000)
    #expect(verdict.disturbed == 50)
    // Counted in, the same samples would be a drop.
    var limits = Flatness.Limits()
    limits.maximumOthers = 1
    #expect(try #require(Flatness.throughput(samples, limits: limits)).falls)
    // A run disturbed throughout gives no verdict.
    let busy = samples.map { Sample(time: $0.time, value: $0.value, others: 0.9) }
    #expect(Flatness.throughput(busy) == nil)
  }

  @Test func aSpeedUpIsNotADrop() throws {
    let samples = Self.samples(seconds: 600) { t in 4000 + t }
    let verdict = try #require(Flatness.throughput(samples))
    #expect(verdict.change > 0)
    #expect(!verdict.falls)
  }

  @Test func theilSenIgnoresOutliers() {
    var samples = Self.samples(seconds: 100, every: 1) { t in 2 * t }
    samples[10].value = 1e9
    samples[50].value = -1e9
    #expect(Flatness.theilSen(samples) == 2)
  }

  @Test func medianAndItsError() {
    #expect(Flatness.median([3, 1, 2]) == 2)
    #expect(Flatness.median([4, 1, 3, 2]) == 2.5)
    #expect(Flatness.standardErrorOfMedian([5, 5, 5, 5]) == 0)
    #expect(Flatness.standardErrorOfMedian([1, 2, 3, 4, 5]) > 0)
  }
}
