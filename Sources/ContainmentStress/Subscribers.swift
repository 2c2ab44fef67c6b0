import Containment
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
  }

  let role: Role
  let controller: Int
  let isTree: Bool
  let received = Locked<[LifecycleEvent]>([])
  private let sequence: LifecycleEvents
  private let pause: Duration
  private let cancelAfter: Duration?

  init(role: Role, controller: StressController, tree: Bool, cancelAfter: Duration? = nil) {
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
    }
    sequence = tree ? controller.treeEvents(policy: policy) : controller.events(policy: policy)
    switch role {
    case .slow: pause = .microseconds(1500)
    case .lagging: pause = .milliseconds(4)
    default: pause = .zero
    }
    self.cancelAfter = cancelAfter
  }

  /// Reads until the stream ends (or, for `cancelling`, until its moment comes).
  func consume() async {
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

  init(world: World, rng: inout SplitMix64) {
    recorders = world.controllers.map { Subscription(role: .recorder, controller: $0, tree: false) }
    var others: [Subscription] = []
    for root in world.roots {
      for role in [Subscription.Role.fast, .slow, .lagging] {
        others.append(Subscription(role: role, controller: world[root], tree: true))
      }
      others.append(
        Subscription(
          role: .cancelling, controller: world[root], tree: true, cancelAfter: .milliseconds(50 + rng.below(3000))))
    }
    for leaf in world.autoLeaves.prefix(4) + world.manualLeaves.prefix(2) {
      others.append(Subscription(role: .slow, controller: world[leaf], tree: false))
      others.append(
        Subscription(
          role: .cancelling, controller: world[leaf], tree: false, cancelAfter: .milliseconds(20 + rng.below(2000))))
    }
    self.others = others
  }

  var all: [Subscription] { recorders + others }
}
