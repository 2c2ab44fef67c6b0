/// What a ``ContainerChecker`` run does: how long, how concurrently, how
/// often it animates and cancels, on which clock, from which seed, and the
/// bounds of its searches.
///
/// A run is a sequence of *epochs*. Each epoch makes a fresh container with
/// your factory and performs ``burstsPerEpoch`` bursts on it; a burst is up
/// to ``tasks`` tasks, each performing ``operationsPerTask`` operations one
/// after the other, all tasks at once. After each burst the tree is idle (a
/// quiescent point) and the checker checks what the burst did; after the
/// last one it tears the container down and checks that everything was
/// released. Memory is bounded by one epoch, whatever the run's length.
public struct CheckConfiguration: Sendable {
  /// Seeds every random choice: the schedules (operations, lanes, animated
  /// variants, cancellations) and the manual clock's steps.
  ///
  /// With ``Interleaving/threads`` the interleavings still vary from run to
  /// run.
  public var seed: UInt64 = 0x5EED
  /// How long the run goes on.
  public var length: CheckLength = .operations(1_000)
  /// Concurrent tasks per burst, at most (each burst picks 1 to `tasks`).
  public var tasks = 4
  /// Operations each task performs in a burst.
  public var operationsPerTask: ClosedRange<Int> = 1...2
  /// Bursts per epoch (per fresh container).
  public var burstsPerEpoch = 6
  /// The probability that an operation is animated.
  public var animation = 0.3
  /// The probability that an operation's task is cancelled at a random moment.
  public var cancellation = 0.1
  /// The clock the containers run on.
  public var clock: CheckClock = .manual
  /// How the concurrent operations are scheduled onto threads.
  ///
  /// With ``Interleaving/seeded(_:)``, each epoch derives its own seed from it.
  public var interleaving: Interleaving = .threads
  /// The linearizability search's bound: how many operations it may replay
  /// to explain one burst (each order it tries replays its operations, and
  /// an order abandoned half way rebuilds the container).
  ///
  /// A burst it cannot explain within the bound is counted as inconclusive, not
  /// as a failure.
  public var replayLimit = 400
  /// How many epochs run at the same time, each on fixtures of its own
  /// (2: the checks and replays of one overlap the operations of the other).
  public var epochsAtOnce = 2
  /// Whether a run stops at the first epoch with a finding (and reduces it).
  public var stopsAtFirstFailure = true
  /// Whether a failure is reduced to a short schedule and a generated test.
  public var reducesFailures = true
  /// The reducer's bound: how many schedules it may try.
  public var reductionTrials = 300
  /// The reducer tries each smaller schedule with this many seeded interleavings.
  public var interleavingsPerTrial = 12

  /// The defaults: 1,000 operations from up to 4 tasks, 30 % animated, 10 %
  /// cancelled, on a manual clock, on threads.
  public init() {}

  /// The defaults with a different `length` and `seed`.
  public init(length: CheckLength, seed: UInt64 = 0x5EED) {
    self.length = length
    self.seed = seed
  }
}
