/// A value with a default that most controllers never change.
protocol OutOfLineValue {
  init()
}

/// State most controllers never use, kept out of line: inline it is one
/// pointer, nil until the state is first written, so an idle controller
/// pays eight bytes for it.
///
/// A value type: each write puts the new value in a new box, which suits state
/// written a few times in a controller's life.
struct OutOfLine<Value: OutOfLineValue> {
  private indirect enum Box {
    case value(Value)
  }
  private var box: Box?

  init() {}

  /// The value, or the default until it is first written.
  var value: Value {
    get {
      guard case .value(let value) = box else { return Value() }
      return value
    }
    set { box = .value(newValue) }
  }
}
