/// What one epoch (one schedule on fresh fixtures) did and found.
struct EpochOutcome: Sendable {
  var findings: [CheckFinding] = []
  var operations = 0
  var bursts = 0
  var replayed = 0
  var inconclusive = 0
}
