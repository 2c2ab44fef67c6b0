import Testing

@testable import Containment

/// The inline list of tree slots a transaction's mark is held by.
@Suite struct SlotListTests {
  @Test func slotsComeBackInTheOrderTheyWereAppended() {
    let slots = (0..<5).map { HierarchySlot(domain: $0) }
    var list = SlotList()
    #expect(list.count == 0)
    #expect(Array(list).isEmpty)
    for (index, slot) in slots.enumerated() {
      list.append(slot)
      #expect(list.count == index + 1)
      #expect(Array(list).map(ObjectIdentifier.init) == slots[...index].map(ObjectIdentifier.init))
    }
    #expect(Array(SlotList(slots[3])).map(ObjectIdentifier.init) == [ObjectIdentifier(slots[3])])
  }
}
