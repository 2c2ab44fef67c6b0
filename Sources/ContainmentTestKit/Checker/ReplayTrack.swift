import Containment

/// The fixture the linearizability check replays operations on, one at a
/// time, and the operations it has replayed since the epoch began: the
/// sequential history explaining every burst so far.
///
/// When an attempt leaves it in another state, it is rebuilt: a fresh fixture,
/// the history replayed on it.
struct ReplayTrack<Fixture: CheckableContainer>: Sendable {
  private let make: @Sendable (ContainmentEnvironment) async throws -> Fixture
  private let operations: [String: ContainerOperation<Fixture>]
  private(set) var session: FixtureSession<Fixture>
  /// The operations (with their animated flag) explaining the epoch so far.
  private(set) var history: [ScheduledOperation] = []
  /// Whether `session` is in the state `history` leads to.
  private var inSync = true
  /// Operations replayed so far, rebuilds included.
  private(set) var replayed = 0
  private var clockSeed: UInt64 = 0x7E57

  init(
    session: FixtureSession<Fixture>, make: @escaping @Sendable (ContainmentEnvironment) async throws -> Fixture,
    operations: [String: ContainerOperation<Fixture>]
  ) {
    self.session = session
    self.make = make
    self.operations = operations
  }

  /// What replaying one order did.
  struct Attempt: Sendable {
    var outcomes: [OperationOutcome]
    /// Per controller: its events in transactions (``EventToken``), and, if
    /// the attempt was attributed, for each the index of the operation it
    /// belongs to, by the transaction it carries.
    var tokens: [[EventToken]]
    var owners: [[Int]]?
    /// A replayed event whose transaction belongs to no operation, or to an
    /// earlier one than an event before it.
    var misattributed: String?
    var shape: TreeShape
  }

  /// Replays `order` from the state `history` leads to; nil if the fixture
  /// could not be rebuilt.
  ///
  /// `attributed`: an id is taken between operations (``StampController``), so
  /// that each event can be traced to the operation that caused it, and checked
  /// to come from it (E3).
  mutating func attempt(_ order: [ScheduledOperation], canonical: ControllerNaming, attributed: Bool) async
    -> Attempt?
  {
    if !inSync {
      guard await rebuild() else { return nil }
    }
    inSync = false
    let session = self.session
    let operations = self.operations
    clockSeed &+= 1
    let (outcomes, windows) = await ClockDriver.run(session.clock, seed: clockSeed) {
      var outcomes: [OperationOutcome] = []
      var windows: [TransactionID?] = attributed ? [await session.transactionNow()] : []
      for scheduled in order {
        guard let operation = operations[scheduled.name] else { preconditionFailure("no operation \(scheduled.name)") }
        outcomes.append(await session.invoke(operation, animated: scheduled.animated))
        await session.quiesce()
        if attributed { windows.append(await session.transactionNow()) }
      }
      return (outcomes, windows)
    }
    replayed += order.count
    let segments = await session.collect()
    var tokens: [[EventToken]] = []
    var owners: [[Int]] = []
    var misattributed: String?
    for (index, segment) in segments.enumerated() {
      let segment = segment ?? []
      tokens.append(EventToken.of(segment, naming: session.naming, canonical: canonical))
      guard attributed else { continue }
      var owner = 0
      var owned: [Int] = []
      for event in segment {
        guard let id = event.transaction else { continue }
        if let found = Self.owner(of: id, windows: windows) {
          if found < owner, misattributed == nil {
            misattributed =
              "replayed one at a time, \(session.naming.names[index]).\(session.naming.describe(event.kind)) of `\(order[found].name)` came after an event of `\(order[owner].name)`"
          }
          owner = max(owner, found)
        } else if misattributed == nil {
          misattributed =
            "replayed one at a time, \(session.naming.names[index]).\(session.naming.describe(event.kind)) carries a transaction created outside every operation (E3)"
        }
        owned.append(owner)
      }
      owners.append(owned)
    }
    return Attempt(
      outcomes: outcomes, tokens: tokens, owners: attributed ? owners : nil, misattributed: misattributed,
      shape: session.shape)
  }

  /// The attempt of `order` explained the burst: the fixture is in the state
  /// the history, extended by `order`, leads to.
  mutating func accept(_ order: [ScheduledOperation]) {
    history += order
    inSync = true
  }

  /// The index of the window (between consecutive ids) holding `id`.
  private static func owner(of id: TransactionID, windows: [TransactionID?]) -> Int? {
    for index in 0..<(windows.count - 1) {
      guard let lower = windows[index], let upper = windows[index + 1] else { return nil }
      if lower < id && id < upper { return index }
    }
    return nil
  }

  /// A fresh fixture with the history replayed on it; false if the factory failed.
  private mutating func rebuild() async -> Bool {
    await session.tearDown()
    let fresh: FixtureSession<Fixture>
    do {
      fresh = try await FixtureSession.make(make, clock: .manual, seed: clockSeed)
    } catch {
      return false
    }
    session = fresh
    let operations = self.operations
    let history = self.history
    clockSeed &+= 1
    await ClockDriver.run(fresh.clock, seed: clockSeed) {
      for scheduled in history {
        guard let operation = operations[scheduled.name] else { preconditionFailure("no operation \(scheduled.name)") }
        _ = await fresh.invoke(operation, animated: scheduled.animated)
        await fresh.quiesce()
      }
    }
    replayed += history.count
    _ = await fresh.collect()
    inSync = true
    return true
  }
}
