/// A container's own bookkeeping (selection, delegate, collapse state),
/// guarded by the link lock like the links it is decided together with.
///
/// Read and write ``_value`` only inside `TreeLock.withLock`: a container's
/// decisions ("which child is selected, is its view installed, is it on
/// screen") must read this and the tree's links at one instant.
final class TreeGuarded<Value>: @unchecked Sendable {
  // MARK: Guarded by TreeLock
  var _value: Value

  init(_ value: Value) { self._value = value }
}
