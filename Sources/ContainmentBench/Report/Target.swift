/// One target: a ratio of two figures (or one figure) compared with a
/// threshold.
///
/// Benchmark figures only, never test assertions: a missed target is reported,
/// not failed.
struct Target: Sendable {
  enum Comparison: String, Sendable {
    case atLeast = ">="
    case atMost = "<="
  }

  let key: String
  /// The target in words.
  let statement: String
  /// How the value is computed, in terms of figure keys.
  let formula: String
  let comparison: Comparison
  let threshold: Double
  let unit: String
  let compute: @Sendable ([String: Figure]) -> Double?

  struct Outcome: Sendable {
    let target: Target
    let value: Double?
    var met: Bool? {
      guard let value, value.isFinite else { return nil }
      switch target.comparison {
      case .atLeast: return value >= target.threshold
      case .atMost: return value <= target.threshold
      }
    }
  }

  func evaluate(_ figures: [String: Figure]) -> Outcome { Outcome(target: self, value: compute(figures)) }

  /// `numerator / denominator` of two figures' medians.
  static func ratio(_ numerator: String, _ denominator: String) -> @Sendable ([String: Figure]) -> Double? {
    { figures in
      guard let top = figures[numerator]?.median, let bottom = figures[denominator]?.median, bottom > 0 else {
        return nil
      }
      return top / bottom
    }
  }

  /// The targets, in the order of the summary line.
  static let all: [Target] = [
    Target(
      key: "pushpop", statement: "push+pop pair <= 70x the raw non-isolated actor call (its 14 hooks are 14 calls)",
      formula: "runtime.pushpop / raw.actor-call", comparison: .atMost, threshold: 70, unit: "x",
      compute: ratio("runtime.pushpop", "raw.actor-call")),
    Target(
      key: "mainactor-batch",
      statement:
        "push+pop within 3.5x of the @MainActor reference running a whole batch in its own isolation (same 14 hooks)",
      formula: "runtime.pushpop / reference.transition-stack-batch (cost ratio)", comparison: .atMost, threshold: 3.5,
      unit: "x", compute: ratio("runtime.pushpop", "reference.transition-stack-batch")),
    Target(
      key: "events", statement: "event delivery to one subscriber >= 1.0x the raw AsyncStream element rate",
      formula: "raw.asyncstream / events.fanout-1 (rates)", comparison: .atLeast, threshold: 1.0, unit: "x",
      compute: ratio("raw.asyncstream", "events.fanout-1")),
    Target(
      key: "hook", statement: "one hook with its event (nobody subscribed) costs <= 2.5 raw actor calls",
      formula: "events.hooks-unobserved / raw.actor-call", comparison: .atMost, threshold: 2.5, unit: "x",
      compute: ratio("events.hooks-unobserved", "raw.actor-call")),
    Target(
      key: "idle",
      statement: "an event costs <= 2x with 10000 subscribers that are not reading as with none (E4)",
      formula: "events.hooks-idle-10000 / events.hooks-unobserved", comparison: .atMost, threshold: 2, unit: "x",
      compute: ratio("events.hooks-idle-10000", "events.hooks-unobserved")),
    Target(
      key: "mainactor-server", statement: "runtime >= 2.5x the @MainActor reference, both driven from server tasks",
      formula:
        "fastest repetition of reference.pushpop-server / runtime.pushpop-server (throughputs; the reference runs in one of two modes from run to run, and a slow one must not win the ratio)",
      comparison: .atLeast, threshold: 2.5, unit: "x",
      compute: { figures in
        guard let reference = figures["reference.pushpop-server"]?.minimum,
          let runtime = figures["runtime.pushpop-server"]?.median, runtime > 0
        else { return nil }
        return reference / runtime
      }),
    Target(
      key: "scaling", statement: "two independent trees on two tasks >= 1.85x the throughput of one",
      formula: "scaling.trees-1 / scaling.trees-2 (throughputs)", comparison: .atLeast, threshold: 1.85, unit: "x",
      compute: ratio("scaling.trees-1", "scaling.trees-2")),
    Target(
      key: "contention",
      statement: "64-way contention keeps >= 60% of uncontended throughput, nothing lost",
      formula: "scaling.contention-1 / scaling.contention-64 (throughputs; lost work fails the run)",
      comparison: .atLeast, threshold: 0.6, unit: "", compute: ratio("scaling.contention-1", "scaling.contention-64")),
    Target(
      key: "mem", statement: "<= 1100 B per idle controller (with its view)", formula: "memory.rss-per-controller",
      comparison: .atMost, threshold: 1100, unit: "B", compute: { $0["memory.rss-per-controller"]?.median }),
    Target(
      key: "tree", statement: "a 10^5-controller tree appears, all hooks delivered, in <= 0.2 s",
      formula: "tree.appear-100000", comparison: .atMost, threshold: 0.2, unit: "s",
      compute: { $0["tree.appear-100000"]?.median }),
    Target(
      key: "depth", statement: "push+pop on a stack 1000 deep costs <= 1.3x push+pop on a one-entry stack",
      formula: "runtime.pushpop-depth-1000 / runtime.pushpop", comparison: .atMost, threshold: 1.3, unit: "x",
      compute: ratio("runtime.pushpop-depth-1000", "runtime.pushpop")),
    Target(
      key: "present-depth",
      statement: "present+dismiss on top of a 1000-deep presentation chain costs <= 1.5x on top of a 1-deep one",
      formula: "runtime.present-depth-1000 / runtime.present-depth-1", comparison: .atMost, threshold: 1.5,
      unit: "x", compute: ratio("runtime.present-depth-1000", "runtime.present-depth-1")),
    Target(
      key: "siblings", statement: "add+remove beside 10000 siblings costs <= 1.3x add+remove in an empty container",
      formula: "runtime.add-remove-siblings-10000 / runtime.add-remove", comparison: .atMost, threshold: 1.3, unit: "x",
      compute: ratio("runtime.add-remove-siblings-10000", "runtime.add-remove")),
  ]
}
