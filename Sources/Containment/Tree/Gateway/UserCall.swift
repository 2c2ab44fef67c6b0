/// One call the runtime makes into user code: whose code it is (the
/// controller a late call faults, whose stream reports it) and its name in
/// reports ("viewWillAppear", "loadView", "tabBarController(_:shouldSelect:)",
/// "animations", "withTransaction", ...).
struct UserCall: Sendable {
  /// How the calling task is marked while the code runs.
  enum Role: Sendable {
    /// Like a hook: requests it makes are nested requests (R2).
    case hook
    /// As the transaction's body (a scope's closure, animations): requests
    /// it makes to the transaction's own queue are part of it (rule 2 of
    /// ``Transaction``).
    case body
  }

  /// The controller whose code it is.
  let owner: any ViewController
  /// Its name in events and diagnostics.
  let name: String
  let role: Role

  init(_ name: String, of owner: any ViewController, as role: Role = .hook) {
    self.owner = owner
    self.name = name
    self.role = role
  }
}
