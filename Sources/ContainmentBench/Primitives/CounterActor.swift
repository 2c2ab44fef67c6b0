/// The smallest useful actor: one counter. The target of the raw actor-call
/// figures.
actor CounterActor {
  private(set) var value = 0

  func increment() { value &+= 1 }
}

/// An actor that calls another actor in a loop: the actor-to-actor figure.
actor CallingActor {
  /// Calls `target.increment()` `count` times from this actor's isolation.
  func call(_ target: CounterActor, count: Int) async -> Duration {
    let watch = Stopwatch()
    for _ in 0..<count { await target.increment() }
    return watch.elapsed
  }
}
