#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#elseif os(Windows)
  import WinSDK
#endif

/// A reference that does not keep its target alive, and reads as nil once
/// the target's deinitialisation has begun: what `weak` gives, without
/// making the target a weak target.
///
/// Why not `weak`: the first weak reference to an object gives it a side
/// table, and from then on every retain and release of that object takes
/// the runtime's slow path through it. Controllers, views and windows are
/// retained and released hundreds of times per transaction, and each is the
/// target of a back-link (a child's parent, a view's superview and owner, a
/// view's window), so `weak` back-links made every one of those slow.
///
/// How: the link holds an *unowned* reference, which keeps the target's
/// memory allocated (not the target alive) with a count kept inline, and
/// reads it with the runtime's try-retain (``TryRetain``), the primitive a
/// weak load is made of: it takes a strong reference only if the target's
/// deinitialisation has not begun, atomically, so a target released on
/// another thread at that moment reads as nil and is never resurrected. A
/// released target's memory stays allocated, inert, until the link is
/// dropped or overwritten.
///
/// Sendable without `@unchecked`: immutable, its target is `Sendable`, and
/// the address is kept as an integer.
struct BackLink<Target: AnyObject & Sendable>: Sendable {
  /// Keeps the target's memory allocated; read only once retained.
  private unowned let target: Target
  /// The target's address (`UInt`: a raw pointer is not `Sendable`).
  private let address: UInt

  init(_ target: Target) {
    self.target = target
    self.address = UInt(bitPattern: Unmanaged.passUnretained(target).toOpaque())
  }

  /// The target, strongly, or nil once its deinitialisation has begun.
  var value: Target? {
    guard TryRetain.retain(address) else { return nil }
    return Unmanaged<Target>.fromOpaque(TryRetain.pointer(address)).takeRetainedValue()
  }

  /// Whether the link is to `object`, retaining neither (a released
  /// target's address is not reused while the link keeps it allocated).
  func refers(to object: AnyObject) -> Bool {
    address == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }
}

/// The Swift runtime's try-retain (`HeapObject *swift_tryRetain(HeapObject *)`,
/// a C function of its stable ABI): increments an object's strong count and
/// returns the object, unless the object's deinitialisation has begun (then
/// null, nothing changed).
///
/// Looked up once, by name, in the loaded runtime.
enum TryRetain {
  private typealias Function = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

  private static let function: Function = {
    #if os(Windows)
      let symbol = GetModuleHandleA("swiftCore.dll").flatMap { GetProcAddress($0, "swift_tryRetain") }
    #elseif canImport(Darwin)
      let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "swift_tryRetain")  // RTLD_DEFAULT
    #else
      let symbol = dlsym(nil, "swift_tryRetain")  // RTLD_DEFAULT
    #endif
    guard let symbol else { fatalError("Containment: the Swift runtime does not export swift_tryRetain") }
    return unsafeBitCast(symbol, to: Function.self)
  }()

  /// Retains the object at `address` unless its deinitialisation has begun.
  ///
  /// `address` must stay allocated (an unowned reference keeps it so).
  static func retain(_ address: UInt) -> Bool {
    function(pointer(address)) != nil
  }

  /// The object's address as a pointer (a back-link's target is never at 0).
  @inline(__always)
  static func pointer(_ address: UInt) -> UnsafeMutableRawPointer {
    // A live object's address is never 0.
    UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped
  }
}
