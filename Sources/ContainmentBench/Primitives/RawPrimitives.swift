import Containment
import ContainmentLocking
import Synchronization

/// Swift's own primitives, measured in the same run as the runtime so that
/// every runtime figure can be stated as a ratio against them.
///
/// Every function here is `nonisolated` and `async`: it runs on the global
/// concurrent executor, like a server's request handler.
enum RawPrimitives {
  static func run(_ sampler: Sampler, options: BenchOptions) async -> [Figure] {
    let calls = options.iterations(2_000_000)
    let elements = options.iterations(200_000)
    let locks = options.iterations(10_000_000)
    var figures: [Figure] = []
    figures.append(
      await sampler.perOperation(
        "raw.actor-call", group: .primitives, "call into an actor from a non-isolated task", operations: calls,
        actorCall))
    figures.append(
      await sampler.perOperation(
        "raw.actor-to-actor", group: .primitives, "actor-to-actor call", operations: calls, actorToActorCall))
    figures.append(
      await sampler.perOperation(
        "raw.asyncstream", group: .primitives,
        "AsyncStream element, yield → next() (LifecycleEvent, 2 tasks, windows of \(DeliveryWindow.size))",
        operations: elements, asyncStreamElements))
    figures.append(
      await sampler.perOperation(
        "raw.asyncstream-int", group: .primitives,
        "AsyncStream element, yield → next() (Int, 2 tasks, windows of \(DeliveryWindow.size))",
        operations: elements, asyncStreamInts))
    figures.append(
      await sampler.perOperation(
        "raw.mutex", group: .primitives, "Synchronization.Mutex lock/unlock (uncontended)", operations: locks,
        mutexLockUnlock))
    figures.append(
      await sampler.perOperation(
        "raw.locked", group: .primitives, "Locked (pthread mutex) lock/unlock (uncontended)", operations: locks,
        lockedLockUnlock))
    return figures
  }

  /// `await counter.increment()` from a non-isolated task, `count` times.
  static func actorCall(_ count: Int) async -> Duration {
    let counter = CounterActor()
    let watch = Stopwatch()
    for _ in 0..<count { await counter.increment() }
    let elapsed = watch.elapsed
    blackHole(await counter.value)
    return elapsed
  }

  /// One actor calling another, `count` times.
  static func actorToActorCall(_ count: Int) async -> Duration {
    let counter = CounterActor()
    let elapsed = await CallingActor().call(counter, count: count)
    blackHole(await counter.value)
    return elapsed
  }

  /// `count` elements through an `AsyncStream`, producer and consumer on two
  /// tasks, flow-controlled by ``DeliveryWindow``: from the first `yield`
  /// until the consumer has read the last one.
  static func asyncStreamElements(_ count: Int) async -> Duration {
    let event = SampleEvents.event(sequenceNumber: 0)
    return await streamThroughput(count) { _ in event }
  }

  static func asyncStreamInts(_ count: Int) async -> Duration {
    await streamThroughput(count) { $0 }
  }

  private static func streamThroughput<Element: Sendable>(
    _ count: Int, _ make: @escaping @Sendable (Int) -> Element
  ) async -> Duration {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
    let window = DeliveryWindow(consumers: 1)
    return await withTaskGroup(of: Int.self) { group in
      group.addTask {
        var received = 0
        for await element in stream {
          blackHole(element)
          received += 1
          if window.completesWindow(received, of: count) { window.consumerCaughtUp() }
        }
        return received
      }
      let watch = Stopwatch()
      await window.produce(count) { continuation.yield(make($0)) }
      let elapsed = watch.elapsed
      continuation.finish()
      let received = await group.next() ?? 0
      precondition(received == count, "AsyncStream lost elements")
      return elapsed
    }
  }

  /// `Synchronization.Mutex` lock/unlock around an increment, uncontended.
  static func mutexLockUnlock(_ count: Int) async -> Duration {
    let mutex = Mutex(0)
    let watch = Stopwatch()
    for _ in 0..<count { mutex.withLock { $0 &+= 1 } }
    let elapsed = watch.elapsed
    blackHole(mutex.withLock { $0 })
    return elapsed
  }

  /// The runtime's `Locked` (pthread mutex) lock/unlock, uncontended.
  static func lockedLockUnlock(_ count: Int) async -> Duration {
    let locked = Locked(0)
    let watch = Stopwatch()
    for _ in 0..<count { locked.withLock { $0 &+= 1 } }
    let elapsed = watch.elapsed
    blackHole(locked.withLock { $0 })
    return elapsed
  }
}
