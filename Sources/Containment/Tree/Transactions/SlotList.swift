import Synchronization

/// The tree slots holding a mark, in the order they took it: usually one or
/// two (a transaction whose subtree split off), kept inline.
struct SlotList: Sequence {
  private var first: HierarchySlot?
  private var second: HierarchySlot?
  private var more: [HierarchySlot] = []

  init() {}
  init(_ slot: HierarchySlot) { first = slot }

  var count: Int { (first == nil ? 0 : 1) + (second == nil ? 0 : 1) + more.count }

  mutating func append(_ slot: HierarchySlot) {
    if first == nil {
      first = slot
    } else if second == nil {
      second = slot
    } else {
      more.append(slot)
    }
  }

  func makeIterator() -> Iterator { Iterator(list: self) }

  struct Iterator: IteratorProtocol {
    let list: SlotList
    var index = 0
    mutating func next() -> HierarchySlot? {
      defer { index += 1 }
      switch index {
      case 0: return list.first
      case 1: return list.first == nil ? nil : list.second
      default:
        let position = index - 2
        return list.second != nil && position < list.more.count ? list.more[position] : nil
      }
    }
  }
}
