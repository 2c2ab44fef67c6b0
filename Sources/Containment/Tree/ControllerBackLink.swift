/// ``BackLink`` to a controller (an existential, which a generic class
/// constraint does not admit).
struct ControllerBackLink: Sendable {
  /// Keeps the controller's memory allocated; read only once retained.
  private unowned let target: any ViewController
  /// The controller's address (`UInt`: a raw pointer is not `Sendable`).
  private let address: UInt

  init(_ target: any ViewController) {
    self.target = target
    self.address = UInt(bitPattern: Unmanaged.passUnretained(target as AnyObject).toOpaque())
  }

  /// The controller, strongly, or nil once its deinitialisation has begun.
  var value: (any ViewController)? {
    guard TryRetain.retain(address) else { return nil }
    // Retained: the unowned read cannot find it deinitialising.
    let controller = target
    Unmanaged<AnyObject>.fromOpaque(TryRetain.pointer(address)).release()
    return controller
  }

  /// Whether the link is to `object`, retaining neither.
  func refers(to object: AnyObject) -> Bool {
    address == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }
}
