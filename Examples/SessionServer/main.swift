// A server-shaped example of supervision: many sessions, each its own window
// and tree, served concurrently. Every tree runs on an environment with a
// hook deadline (100 ms on the real clock) and the `isolate` fault policy.
// One session's panel has a `viewWillAppear` that waits on a backend that
// never answers: past the deadline the panel is faulted, the isolate policy
// removes it from its parent, and that session and every other one keep
// serving. A watchdog (`waitUntil(.faulted)`) and each tree's event stream
// see it happen. Then every session shuts down in order, and the backend is
// released so that the hung hook returns.
//
//   swift run -c release session-server                 200 sessions
//   swift run -c release session-server --sessions 50
//   swift run -c release session-server --until-signal  then: kill -TERM <pid>
//
// With `--until-signal` the shutdown waits for SIGTERM or SIGINT, as a
// server under an orchestrator does: the signal requests the graceful
// shutdown, and every tree goes off screen, stops children before parents
// and ends its streams before the process exits 0. (With
// swift-service-lifecycle, each session would be a `ContainmentService` in
// one `ServiceGroup` with `gracefulShutdownSignals: [.sigterm, .sigint]`: see
// Integrations/ContainmentServiceLifecycle.)
//
// The last line is `session-server: <N> sessions served, <R> requests, <F>
// faults isolated`; the exit status is 0 only if every session was served and
// exactly one fault was isolated.

import CommandLineOptions
import Containment

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a run ends with: the last line's counts, and what went wrong.
struct Outcome {
  var served = 0
  var requests = 0
  var faultsIsolated = 0
  var problems: [String] = []
}

/// Runs `count` sessions, the middle one with a stuck backend, and prints
/// what happened to it.
///
/// Who does what: one task per session holds its tree as a service
/// (`Session.run`, over `Window.run`) and reads its event stream; one more
/// serves its requests (`Session.serve`). The runtime runs each hook in a
/// task of its own raced against the deadline, abandons the hung one, and
/// applies the fault policy in a request of its own. This function only
/// waits, through the public API (`waitUntil`, event streams).
func runServer(sessions count: Int, untilSignal: Bool) async throws -> Outcome {
  let environment = ContainmentEnvironment(
    clock: ContinuousClock(), hookDeadline: .milliseconds(100), faultPolicy: .isolate)
  let stuckBackend = Backend(stuck: true)
  var sessions: [Session] = []
  for index in 0..<count {
    let backend = index == count / 2 ? stuckBackend : .healthy
    sessions.append(try await Session("session-\(index)", environment: environment, backend: backend))
  }
  let stuck = sessions[count / 2]
  print("session-server: \(count) sessions, hook deadline 100 ms, fault policy \(environment.faultPolicy)")

  // Structured all the way: the services and the clients are children of
  // these groups. Only the hung hook outlives its caller (the runtime
  // abandoned it); the backend's release at the end lets it return.
  let shutdown = GracefulShutdown()
  let (served, supervision) = try await withThrowingTaskGroup(of: Supervision.self) { services in
    for session in sessions {
      services.addTask { try await session.run(until: shutdown) }
    }
    let served = await serve(sessions, watching: stuck)

    // Once the stuck session's tree is idle, the isolation (a request of its
    // own, queued when the faulting transaction ended) has run.
    try await stuck.root.waitUntil(.idle)
    let parent = stuck.panel.parent?.node.name ?? "none"
    print("\(stuck.name): the panel's parent: \(parent); the root's children: \(names(stuck.root))")
    let requests = served.first { $0.session == stuck.name }?.requests ?? 0
    let stack = stuck.navigation.viewControllers.map(\.node.name).joined(separator: " > ")
    print(
      "\(stuck.name): the rest of its tree kept serving: \(requests)/\(Session.requestCount) requests, stack \(stack)")

    if untilSignal {
      let signal = await Termination.wait()
      print("session-server: \(signal): shutting down")
    }
    shutdown.request()  // every service tears its tree down in order, then returns
    return (served, try await services.reduce(into: [Supervision]()) { $0.append($1) })
  }
  stuckBackend.release()
  return check(served, supervision, sessions: count, stuck: stuck)
}

/// Serves every session at once, with a watchdog on the stuck session's
/// panel; returns when every request was answered.
func serve(_ sessions: [Session], watching stuck: Session) async -> [Served] {
  await withTaskGroup(of: Served?.self) { clients in
    // The watchdog wakes when the panel is faulted (no polling).
    clients.addTask {
      guard (try? await stuck.panel.waitUntil(.faulted)) != nil else { return nil }
      print("\(stuck.name): watchdog: Panel.viewWillAppear ran past its deadline (isFaulted: \(stuck.panel.isFaulted))")
      return nil
    }
    for session in sessions {
      clients.addTask { await session.serve() }
    }
    var served: [Served] = []
    for await case let session? in clients {
      served.append(session)
      // Every request answered and nothing faulted: stop the watchdog too.
      if served.count == sessions.count, !stuck.panel.isFaulted { clients.cancelAll() }
    }
    return served
  }
}

/// Prints what the event streams said and checks the run.
func check(_ served: [Served], _ supervision: [Supervision], sessions count: Int, stuck: Session) -> Outcome {
  let timedOut = supervision.flatMap(\.timedOut)
  let isolated = supervision.flatMap(\.isolatedFrom)
  let skipped = supervision.flatMap(\.skipped)
  print("events: hookTimedOut \(timedOut.joined(separator: ", "))")
  print("events: childRemoved(reason: faulted) on \(isolated.joined(separator: ", ")), \(skipped.count) hookSkipped")
  let stopOrder = supervision.first { $0.stopOrder.last == stuck.name }?.stopOrder ?? []
  print("shutdown: \(supervision.count) trees torn down in order (\(stuck.name): \(stopOrder.joined(separator: ", ")))")

  var outcome = Outcome(
    served: served.filter(\.isComplete).count, requests: served.map(\.requests).reduce(0, +),
    faultsIsolated: isolated.count)
  for session in served where !session.isComplete {
    outcome.problems.append("\(session.session) served \(session.requests) requests, then: \(session.failures)")
  }
  if timedOut.count != 1 { outcome.problems.append("\(timedOut.count) hooks ran past their deadline, expected 1") }
  if stuck.panel.parent != nil { outcome.problems.append("the faulted panel is still in its tree") }
  let lost = supervision.map(\.lost).reduce(0, +)
  if lost > 0 { outcome.problems.append("the event readers lost \(lost) events") }
  if outcome.faultsIsolated != 1 { outcome.problems.append("\(outcome.faultsIsolated) faults isolated, expected 1") }
  if outcome.served != count { outcome.problems.append("\(outcome.served) of \(count) sessions served") }
  return outcome
}

/// The names of `controller`'s children.
func names(_ controller: any ViewController) -> [String] { controller.children.map(\.node.name) }

let options = ServerOptions.parseOrExit()
let outcome = try await runServer(sessions: options.sessions, untilSignal: options.untilSignal)
for problem in outcome.problems.prefix(10) { print("problem: \(problem)") }
let (served, requests, faults) = (outcome.served, outcome.requests, outcome.faultsIsolated)
print("session-server: \(served) sessions served, \(requests) requests, \(faults) faults isolated")
exit(outcome.problems.isEmpty ? ExitStatus.success.code : ExitStatus.failure.code)
