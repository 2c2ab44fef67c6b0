/// What an operation's body did: returned, or threw an error (its
/// description, controller ids replaced by names).
enum OperationOutcome: Sendable, Hashable, CustomStringConvertible {
  case returned
  case threw(String)

  var description: String {
    switch self {
    case .returned: "returned"
    case .threw(let error): "threw \(error)"
    }
  }
}
