import Containment

/// One thing a user can do to a container — "tap tab 1", "push detail",
/// "present sheet", "dismiss" — written on the public API, for the
/// ``ContainerChecker`` to perform at random, concurrently with others.
///
/// ```swift
/// ContainerOperation<TabsFixture>("tap second", weight: 2) { fixture, animated in
///   try await fixture.tabs.tap(1, animated: animated)
/// }
/// ```
///
/// The body receives the fixture and whether to animate, and runs in a task
/// of its own: the checker may cancel that task at any moment. Throwing is
/// an outcome like any other (a refused request): the sequential replay
/// must throw an error with the same description.
///
/// The checker treats each operation as atomic: its effect must equal that
/// of running it alone at some point between its call and its return
/// (linearizability). An operation that does its work as several
/// transactions lets another one fall between them; the checker reports
/// that history when no sequential order explains it.
public struct ContainerOperation<Fixture: CheckableContainer>: Sendable {
  /// The name findings and generated tests use; unique among a checker's operations.
  public let name: String
  /// How often it is picked, relative to the other operations (at least 1).
  public let weight: Int
  /// The operation itself.
  let body: @Sendable (Fixture, Bool) async throws -> Void

  /// An operation named `name`, picked with relative frequency `weight`.
  ///
  /// - Parameters:
  ///   - name: A unique name, used in findings and in generated tests.
  ///   - weight: Relative frequency; values below 1 count as 1.
  ///   - body: Performs the operation on the fixture; `animated` is chosen at
  ///     random by runs (the configuration's ``CheckConfiguration/animation``)
  ///     and given explicitly by schedules.
  public init(
    _ name: String, weight: Int = 1,
    perform body: @escaping @Sendable (_ fixture: Fixture, _ animated: Bool) async throws -> Void
  ) {
    self.name = name
    self.weight = max(1, weight)
    self.body = body
  }
}
