import Containment

/// Reads the next `count` removal events (`childRemoved`, `dismissed`) of a
/// tree stream, as "Parent childRemoved(Child, reason)".
func removals(
  _ count: Int, from iterator: inout LifecycleEvents.AsyncIterator, _ controllers: [any ViewController]
)
  async -> [String]
{
  let names = Dictionary(uniqueKeysWithValues: controllers.map { ($0.node.id, $0.node.name) })
  var result: [String] = []
  while result.count < count, let event = await iterator.next() {
    switch event.kind {
    case .childRemoved(let child, let reason):
      result.append("\(event.name) childRemoved(\(names[child] ?? "?"), \(reason))")
    case .dismissed(let presented, _, let reason):
      result.append("\(event.name) dismissed(\(names[presented] ?? "?"), \(reason))")
    default: continue
    }
  }
  return result
}
