import ContainmentLocking

/// An object of the tree whose guarded state is one ``LinkCell`` it holds as
/// a constant: a controller's node, a view, a window.
///
/// It reads and writes that state as `object[held]`, inside a section that
/// holds its domain (checked in debug builds).
protocol LinkCellOwner: AnyObject {
  associatedtype Links
  /// The guarded state's cell; its domain is the object's.
  var links: LinkCell<Links> { get }
}

extension LinkCellOwner {
  #if DEBUG
    /// The guarded state, inside a section.
    @inline(__always)
    subscript(_ held: LinkSection) -> Links {
      _read { yield links[held] }
      _modify { yield &links[held] }
    }
  #else
    /// The guarded state, inside a section.
    ///
    /// Addressors, not coroutines: a coroutine that an access cannot inline
    /// (one with several exits) allocates its frame and copies the value.
    @inline(__always)
    subscript(_ held: LinkSection) -> Links {
      unsafeAddress { UnsafePointer(links.address(held)) }
      unsafeMutableAddress { links.address(held) }
    }
  #endif
}
