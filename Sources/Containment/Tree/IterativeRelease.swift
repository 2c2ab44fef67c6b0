#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#endif

/// Releases long chains of owned objects with a bounded stack.
///
/// A node owns its children, whose nodes own theirs: when the last reference
/// to the root of a chain 100,000 controllers deep is dropped, Swift's
/// release would recurse once per level (`deinit` → release the children →
/// `deinit` ...) and overflow the thread's stack. Instead, a `deinit` hands
/// the objects it owns to this thread's release list; the outermost `deinit`
/// on the thread drops them one batch at a time, and the `deinit`s that
/// causes append their own batches to the same list instead of recursing.
/// Everything is still released before the outermost release returns, on
/// the same thread, so dropping a tree frees it synchronously, as before.
///
/// Per thread, not shared: one thread's release never waits for, or is
/// delayed by, another's (R5).
enum IterativeRelease {
  /// Takes the objects out of `objects` (leaving it empty) and releases them
  /// without recursion.
  static func release(_ objects: inout [any ViewController]) {
    #if os(Windows)
      objects = []
    #else
      release(&objects, into: \.controllers)
    #endif
  }

  /// Same, for views (a view owns its subviews).
  static func release(_ objects: inout [View]) {
    #if os(Windows)
      objects = []
    #else
      release(&objects, into: \.views)
    #endif
  }

  #if !os(Windows)
    private static func release<Object>(
      _ objects: inout [Object], into batches: ReferenceWritableKeyPath<ReleaseList, [[Object]]>
    ) {
      guard !objects.isEmpty else { return }
      let list = ReleaseList.current
      list[keyPath: batches].append(objects)
      objects = []
      list.drainUnlessDraining()
    }
  #endif
}

#if !os(Windows)
  /// One thread's objects waiting to be released; only that thread touches it.
  private final class ReleaseList {
    var controllers: [[any ViewController]] = []
    var views: [[View]] = []
    var isDraining = false

    /// Drops every batch, including those that dropping adds, unless an outer
    /// frame on this thread is already doing so (it will drop these too).
    func drainUnlessDraining() {
      guard !isDraining else { return }
      isDraining = true
      while true {
        if let batch = controllers.popLast() {
          _ = consume batch
        } else if let batch = views.popLast() {
          _ = consume batch
        } else {
          break
        }
      }
      isDraining = false
    }

    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      let created = pthread_key_create(&key) { list in
        // Glibc passes an optional pointer, Darwin a non-optional one.
        let pointer: UnsafeMutableRawPointer? = list
        if let pointer { Unmanaged<ReleaseList>.fromOpaque(pointer).release() }
      }
      precondition(created == 0, "pthread_key_create failed")
      return key
    }()

    /// This thread's list, created on first use and freed when the thread ends.
    static var current: ReleaseList {
      if let pointer = pthread_getspecific(key) {
        return Unmanaged<ReleaseList>.fromOpaque(pointer).takeUnretainedValue()
      }
      let list = ReleaseList()
      pthread_setspecific(key, Unmanaged.passRetained(list).toOpaque())
      return list
    }
  }
#endif
