import Containment

/// Records the watched controllers' event streams, one subscription each,
/// and reads them only at quiescent points: the events wait in each
/// subscription's buffer meanwhile (the runtime never waits for a reader:
/// E4), so recording costs no task switch per event.
///
/// A read is cut at a *sentinel*: at a quiescent point the checker calls
/// `endAppearanceTransition()` on a controller at rest, which changes
/// nothing and reports `unbalancedAppearanceTransition(.endWithoutBegin)`
/// outside any transaction (A4). A stream keeps its controller's order
/// (E3), so everything before the sentinel belongs to the segment read: no
/// timing guess.
///
/// An actor: the iterators are its state, read by one caller at a time.
actor EventRecorder {
  private var iterators: [LifecycleEvents.AsyncIterator?]
  /// Events the streams reported lost (never expected: the buffers are large).
  private(set) var lost = 0

  /// Subscribes to every controller now: every later event is recorded.
  init(_ controllers: [any ViewController]) {
    iterators = controllers.map { $0.events(policy: .keepNewest(1 << 22)).makeAsyncIterator() }
  }

  /// What a sentinel looks like: an `end` with nothing begun, or one refused
  /// on a torn-down controller, outside any transaction.
  static func isSentinel(_ event: LifecycleEvent) -> Bool {
    guard event.transaction == nil else { return false }
    switch event.kind {
    case .unbalancedAppearanceTransition(.endWithoutBegin), .callIgnored(.tornDown): return true
    default: return false
    }
  }

  /// Each controller's events up to its sentinel (call after sending one to
  /// every controller marked in `sentinelled`), or nil for the others.
  ///
  /// A stream that ends gives what it had.
  func segments(_ sentinelled: [Bool]) async -> [[LifecycleEvent]?] {
    var segments: [[LifecycleEvent]?] = []
    for index in iterators.indices {
      guard sentinelled[index], var iterator = iterators[index] else {
        segments.append(sentinelled[index] ? [] : nil)
        continue
      }
      var segment: [LifecycleEvent] = []
      reading: while let event = await iterator.next(isolation: self) {
        switch event.kind {
        case .subscribed:
          continue
        case .eventsLost(let count):
          lost += count
        case .terminated, .lagged:
          break reading
        default:
          if Self.isSentinel(event) { break reading }
          segment.append(event)
        }
      }
      iterators[index] = iterator
      segments.append(segment)
    }
    return segments
  }

  /// Ends every subscription.
  func stop() { iterators = iterators.map { _ in nil } }
}
