import ContainmentLocking
import Testing

/// A lazy reference is set at most once: the first store wins, later stores
/// give their object back untouched, and the stored object lives exactly as
/// long as the reference.
struct LazyReferenceTests {
  final class Target: Sendable {}
  final class Holder: Sendable {
    let reference = LazyReference<Target>()
  }

  @Test func theFirstStoreWinsAndALaterOneIsNotKept_invariants() {
    let holder = Holder()
    #expect(holder.reference.load() == nil)
    let first = Target()
    #expect(holder.reference.storeIfNil(first) === first)
    #expect(holder.reference.load() === first)
    var second: Target? = Target()
    #expect(holder.reference.storeIfNil(second!) === first)
    weak let loser = second
    second = nil
    #expect(loser == nil)
    #expect(holder.reference.load() === first)
  }

  @Test func theStoredObjectIsReleasedWithTheReference_invariants() {
    var holder: Holder? = Holder()
    var target: Target? = Target()
    _ = holder!.reference.storeIfNil(target!)
    weak let stored = target
    target = nil
    #expect(stored != nil)
    holder = nil
    #expect(stored == nil)
  }

  @Test func withLoadedRunsOnlyOnAStoredObject_invariants() {
    let holder = Holder()
    var seen: [ObjectIdentifier] = []
    #expect(holder.reference.withLoaded { seen.append(ObjectIdentifier($0)) } == nil)
    let target = Target()
    _ = holder.reference.storeIfNil(target)
    #expect(holder.reference.withLoaded { ObjectIdentifier($0) } == ObjectIdentifier(target))
    #expect(seen.isEmpty)
  }
}
