/// A value with a default that most controllers never change.
protocol OutOfLineValue {
  init()
}

/// State most controllers never use, kept out of line: inline it is one
/// pointer, nil until the state is first written, so an idle controller
/// pays eight bytes for it.
///
/// A value type (copy on write): the first write allocates the box, later
/// writes change it in place while this is its only reference.
struct OutOfLine<Value: OutOfLineValue> {
  private final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
  }
  private var box: Box?

  init() {}

  /// Whether the value was ever written (until then reading it makes a default one).
  var isWritten: Bool { box != nil }

  /// The value, or the default until it is first written.
  var value: Value {
    get { box?.value ?? Value() }
    _modify {
      if box == nil || !isKnownUniquelyReferenced(&box) { box = Box(box?.value ?? Value()) }
      yield &box.unsafelyUnwrapped.value
    }
  }
}
