import Dispatch
import Testing

@testable import Containment
@testable import ContainmentLocking

/// The lock-free stack holding the requests a transaction defers until it
/// ends: every request pushed is taken exactly once, oldest first.
@Suite struct DeferredStackTests {
  private final class Holder: Sendable {
    let stack = DeferredStack()
    let log = Locked<[Int]>([])

    func push(_ value: Int) {
      stack.push { [log] in log.withLock { $0.append(value) } }
    }

    /// Runs what was taken, in the order taken; returns the values they logged.
    func runTaken() async -> [Int] {
      log.withLock { $0.removeAll() }
      for request in stack.takeAll() { await request() }
      return log.withLock { $0 }
    }
  }

  @Test func requestsAreTakenOldestFirstAndOnlyOnce() async {
    let holder = Holder()
    #expect(await holder.runTaken() == [])
    for value in 0..<5 { holder.push(value) }
    #expect(await holder.runTaken() == [0, 1, 2, 3, 4])
    #expect(await holder.runTaken() == [])
    holder.push(5)
    #expect(await holder.runTaken() == [5])
  }

  @Test func aClosedStackRefusesLaterPushesAndKeepsNothing() async {
    let holder = Holder()
    #expect(holder.stack.push { holder.log.withLock { $0.append(0) } })
    #expect(holder.stack.push { holder.log.withLock { $0.append(1) } })
    for request in holder.stack.close() { await request() }
    #expect(holder.log.withLock { $0 } == [0, 1])
    #expect(!holder.stack.push { holder.log.withLock { $0.append(2) } })
    #expect(await holder.runTaken() == [])
    #expect(holder.stack.close().isEmpty)
    #expect(!holder.stack.push { holder.log.withLock { $0.append(3) } })
    #expect(await holder.runTaken() == [])
  }

  /// Pushes from several threads race a close: each push either is taken by
  /// the close, in its thread's order, or is refused; none is lost.
  @Test func pushesRacingACloseAreTakenOrRefused() async {
    let holder = Holder()
    let threads = 4
    let perThread = 5_000
    let refused = Locked<[Int]>([])
    let taken = Locked<[DeferredStack.Request]>([])
    DispatchQueue.concurrentPerform(iterations: threads + 1) { thread in
      if thread == threads {
        let first = holder.stack.takeAll()
        let rest = holder.stack.close()
        taken.withLock { $0 = first + rest }
      } else {
        for index in 0..<perThread {
          let value = thread * perThread + index
          if !holder.stack.push({ [log = holder.log] in log.withLock { $0.append(value) } }) {
            refused.withLock { $0.append(value) }
          }
        }
      }
    }
    for request in taken.withLock({ $0 }) { await request() }
    let values = holder.log.withLock { $0 }
    let refusedValues = refused.withLock { $0 }
    #expect(values.count + refusedValues.count == threads * perThread)
    #expect(Set(values + refusedValues).count == threads * perThread)
    for thread in 0..<threads {
      let own = values.filter { $0 / perThread == thread }
      let ownRefused = refusedValues.filter { $0 / perThread == thread }
      // A thread's pushes are taken up to the close, then all refused.
      #expect(own + ownRefused == Array(thread * perThread..<(thread + 1) * perThread))
    }
  }

  /// Pushes from several threads while another thread takes: nothing is lost
  /// or taken twice, and each thread's requests keep their order.
  @Test func concurrentPushesAndTakesLoseNothing() async {
    let holder = Holder()
    let threads = 4
    let perThread = 5_000
    let taken = Locked<[DeferredStack.Request]>([])
    DispatchQueue.concurrentPerform(iterations: threads + 1) { thread in
      if thread == threads {
        for _ in 0..<1_000 {
          let batch = holder.stack.takeAll()
          taken.withLock { $0 += batch }
        }
      } else {
        for index in 0..<perThread { holder.push(thread * perThread + index) }
      }
    }
    let rest = holder.stack.takeAll()
    taken.withLock { $0 += rest }
    for request in taken.withLock({ $0 }) { await request() }
    let values = holder.log.withLock { $0 }
    #expect(values.count == threads * perThread)
    #expect(Set(values).count == threads * perThread)
    for thread in 0..<threads {
      let own = values.filter { $0 / perThread == thread }
      #expect(own == Array(thread * perThread..<(thread + 1) * perThread))
    }
  }
}
