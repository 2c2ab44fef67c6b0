/// A growable FIFO ring buffer: amortised O(1) `append`, O(1) `popFirst` and indexed reads, no
/// element shifting.
struct BroadcastBuffer<Element> {
  private var slots: ContiguousArray<Element?> = []
  private var head = 0
  /// Number of elements currently stored.
  private(set) var count = 0

  init() {}

  var isEmpty: Bool { count == 0 }

  /// The element `offset` places after the oldest one (`0 ..< count`).
  subscript(offset: Int) -> Element? {
    guard offset >= 0, offset < count else { return nil }
    var index = head + offset
    if index >= slots.count { index -= slots.count }
    return slots[index]
  }

  /// Appends at the tail, growing (doubling) the storage when full.
  mutating func append(_ element: consuming Element) {
    if count == slots.count { grow() }
    var tail = head + count
    if tail >= slots.count { tail -= slots.count }
    slots[tail] = element
    count += 1
  }

  /// Removes and returns the oldest element, or `nil` when empty.
  @discardableResult
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    // Moved out, not copied: no reference count changes for its contents.
    let element = slots[head].take()
    count -= 1
    head = count == 0 ? 0 : (head + 1 == slots.count ? 0 : head + 1)
    return element
  }

  /// Discards every element; keeps a small storage for the next ones.
  mutating func removeAll() {
    if slots.count > 16 {
      slots = []
    } else {
      for offset in 0..<count { slots[(head + offset) % slots.count] = nil }
    }
    head = 0
    count = 0
  }

  private mutating func grow() {
    let newCapacity = Swift.max(4, slots.count * 2)
    var newSlots = ContiguousArray<Element?>()
    newSlots.reserveCapacity(newCapacity)
    for offset in 0..<count {
      var index = head + offset
      if index >= slots.count { index -= slots.count }
      newSlots.append(slots[index].take())
    }
    newSlots.append(contentsOf: repeatElement(nil, count: newCapacity - count))
    slots = newSlots
    head = 0
  }
}

extension BroadcastBuffer: Sendable where Element: Sendable {}
