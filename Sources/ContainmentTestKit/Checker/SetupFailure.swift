/// A fixture could not be made: the setup finding that says why.
struct SetupFailure: Error, Sendable {
  let finding: CheckFinding
}
