import Containment
import ContainmentLocking
import ContainmentTestKit

/// Everything one subscription received, in order.
final class Subscription: Sendable {
  enum Role: String, Sendable, CaseIterable {
    /// The harness's own full record of a controller's stream (never loses).
    case recorder
    /// Reads as fast as it can, generous buffer.
    case fast
    /// Sleeps between reads with a small keepNewest buffer: must see exact lost-count markers.
    case slow
    /// Sleeps with a small disconnectOnLag buffer: must end with `lagged`.
    case lagging
    /// Stops reading at a random moment (its task is cancelled).
    case cancelling
    /// Does not read at all until the trees are torn down, then reads what its small buffer
    /// kept (keepNewest) or its `lagged` marker (disconnectOnLag): many of them sit on the
    /// streams the whole run, and must cost the runtime nothing (E4).
    case idle
    case idleLagging
  }

  let role: Role
  let controller: Int
  let isTree: Bool
  let received = Locked<[LifecycleEvent]>([])
  private let sequence: LifecycleEvents
  private let pause: Duration
  private let cancelAfter: Duration?
  /// For the idle roles: opened once the trees are torn down.
  private let readFrom: Gate?

  init(role: Role, controller: StressController, tree: Bool, cancelAfter: Duration? = nil, readFrom: Gate? = nil) {
    self.role = role
    self.controller = controller.index
    self.isTree = tree
    let policy: SubscriberPolicy
    switch role {
    case .recorder: policy = .keepNewest(1 << 28)
    case .fast: policy = .keepNewest(1 << 16)
    case .slow: policy = .keepNewest(8)
    case .lagging: policy = .disconnectOnLag(8)
    case .cancelling: policy = .keepNewest(64)
    case .idle: policy = .keepNewest(16)
    case .idleLagging: policy = .disconnectOnLag(16)
    }
    sequence = tree ? controller.treeEvents(policy: policy) : controller.events(policy: policy)
    switch role {
    case .slow: pause = .microseconds(1500)
    case .lagging: pause = .milliseconds(4)
    default: pause = .zero
    }
    self.cancelAfter = cancelAfter
    self.readFrom = readFrom
  }

  /// Reads until the stream ends (or, for `cancelling`, until its moment comes; for the idle
  /// roles, from the moment the trees are torn down).
  func consume() async {
    if let readFrom { await readFrom.wait() }
    guard let cancelAfter else { return await read() }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.read() }
      group.addTask { try? await Task.sleep(for: cancelAfter) }
      await group.next()
      group.cancelAll()
    }
  }

  private func read() async {
    for await event in sequence {
      received.withLock { $0.append(event) }
      if pause > .zero { try? await Task.sleep(for: pause) }
    }
  }

  var events: [LifecycleEvent] { received.withLock { $0 } }
}

/// The subscriptions of one run: a recorder per controller (subscribed before
/// anything happens to it), and fast, slow, lagging and cancelling
/// subscribers on the tree streams and on some leaves.
struct Subscribers: Sendable {
  let recorders: [Subscription]
  let others: [Subscription]
  /// Opened once the trees are torn down: the idle subscribers read then.
  let tornDown = Gate()
  /// Idle subscribers on each root's tree stream, and on each of a few leaves' own streams.
  static let idlePerRoot = 200
  static let idlePerLeaf = 20

  init(world: World, rng: inout SplitMix64) {
    recorders = world.controllers.map { Subscription(role: .recorder, controller: $0, tree: false) }
    var others: [Subscription] = []
    let tornDown = tornDown
    func idle(_ count: Int, on controller: StressController, tree: Bool) -> [Subscription] {
      (0..<count).map { index in
        Subscription(
          role: index % 2 == 0 ? .idle : .idleLagging, controller: controller, tree: tree, readFrom: tornDown)
      }
    }
    for root in world.roots {
      for role in [Subscription.Role.fast, .slow, .lagging] {
        others.append(Subscription(role: role, controller: world[root], tree: true))
      }
      others += idle(Self.idlePerRoot, on: world[root], tree: true)
      others.append(
        Subscription(
          role: .cancelling, controller: world[root], tree: true, cancelAfter: .milliseconds(50 + rng.below(3000))))
    }
    for leaf in world.autoLeaves.prefix(4) + world.manualLeaves.prefix(2) {
      others.append(Subscription(role: .slow, controller: world[leaf], tree: false))
      others += idle(Self.idlePerLeaf, on: world[leaf], tree: false)
      others.append(
        Subscription(
          role: .cancelling, controller: world[leaf], tree: false, cancelAfter: .milliseconds(20 + rng.below(2000))))
    }
    self.others = others
  }

  var all: [Subscription] { recorders + others }
}
