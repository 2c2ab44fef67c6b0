import ContainmentLocking

/// What a controller's place in its tree decides, computed once and cached on
/// its node: the path its events carry, the tree streams they go to, the
/// environment (clock) that stamps them, the hosting window, and the slot
/// that stands for the whole tree in hierarchical exclusion.
///
/// Why cached: every one of these used to be found by walking to the root,
/// once per event and per transaction, so building a chain n controllers
/// deep cost O(n²). A position is derived from the parent's in O(1); it is
/// dropped (with those of the whole subtree below) when anything it depends
/// on changes: a parent link, a departure, a tree stream, an environment, a
/// window (``ControllerNode/invalidatePositions(_:)``).
///
/// Immutable once made: it may be read outside the link lock (the path is
/// computed from the immutable chain of positions above it).
final class TreePosition: Sendable {
  /// The position above: the parent's, or, while a removal's hooks run, the
  /// former parent's (E2: a removed child's events still reach its
  /// former ancestors' tree streams until `didMove(toParent: nil)`).
  let above: TreePosition?
  let name: String
  /// The tree streams of the controller and of everything above it.
  let treeStreams: [Broadcaster<LifecycleEvent>]
  /// The nearest environment set on the controller, an ancestor or the
  /// hosting window; a departure's former tree does not count.
  let environment: ContainmentEnvironment?
  /// The environment that stamps events: `environment`, else the former
  /// tree's while departing, else the default.
  let eventEnvironment: ContainmentEnvironment
  private let windowLink: BackLink<Window>?
  /// The slot of the topmost thing of the tree: the hosting window's, else
  /// the root controller's (hierarchical exclusion's fast path).
  let treeSlot: HierarchySlot

  /// The window the tree is shown in, if its root is a window's root.
  var window: Window? { windowLink?.value }

  init(
    above: TreePosition?, name: String, treeStreams: [Broadcaster<LifecycleEvent>],
    environment: ContainmentEnvironment?, eventEnvironment: ContainmentEnvironment,
    window: Window?, treeSlot: HierarchySlot
  ) {
    self.above = above
    self.name = name
    self.treeStreams = treeStreams
    self.environment = environment
    self.eventEnvironment = eventEnvironment
    self.windowLink = window.map(BackLink.init)
    self.treeSlot = treeSlot
  }

  /// The path, once computed, if it is short enough to keep (a chain
  /// thousands deep would keep O(depth²) characters).
  ///
  /// One word: most positions never need their path.
  private let cachedPath = LazyReference<PathBox>()
  private static var longestCachedPath: Int { 512 }

  private final class PathBox: Sendable {
    let path: String
    init(_ path: String) { self.path = path }
  }

  /// Names from the root down, joined by "/".
  ///
  /// Computed (O(depth)) only for events someone can receive, then kept unless
  /// it is long.
  var path: String {
    if let cached = cachedPath.load() { return cached.path }
    let path = computePath()
    if path.utf8.count <= Self.longestCachedPath { _ = cachedPath.storeIfNil(PathBox(path)) }
    return path
  }

  /// `body` run with ``path``, borrowed from the cache when it is there (no
  /// reference count changes for a path already computed).
  func withPath<Result>(_ body: (String) throws -> Result) rethrows -> Result {
    if let result = try cachedPath.withLoaded({ try body($0.path) }) { return result }
    return try body(path)
  }

  private func computePath() -> String {
    var names: [String] = []
    var position: TreePosition? = self
    while let current = position {
      names.append(current.name)
      position = current.above
    }
    return names.reversed().joined(separator: "/")
  }
}

extension ControllerNode {
  /// Under the link lock: this controller's position, from the cache or
  /// derived from the nearest cached one above (caching every position on the
  /// way down).
  ///
  /// Amortized O(1).
  func position(_ held: LinkSection) -> TreePosition {
    if let cached = self[held].cachedPosition { return cached }
    var uncached: [ControllerNode] = []
    var above: TreePosition?
    var top = self
    while let parent = top[held].treeParent {
      if let cached = parent[held].cachedPosition {
        above = cached
        break
      }
      uncached.append(parent)
      top = parent
    }
    for node in uncached.reversed() {
      let position = node.makePosition(held, above: above)
      node[held].cachedPosition = position
      above = position
    }
    let position = makePosition(held, above: above)
    self[held].cachedPosition = position
    return position
  }

  /// Under the link lock: this controller's position given its parent's
  /// (`parentPosition`), or as a root when nil.
  private func makePosition(_ held: LinkSection, above parentPosition: TreePosition?) -> TreePosition {
    let ownStreams = self[held].eventRouting.treeEvents.map { [$0] } ?? []
    if let parentPosition {
      let environment = self[held].environment ?? parentPosition.environment
      return TreePosition(
        above: parentPosition, name: name, treeStreams: ownStreams + parentPosition.treeStreams,
        environment: environment, eventEnvironment: environment ?? parentPosition.eventEnvironment,
        window: parentPosition.window, treeSlot: parentPosition.treeSlot)
    }
    let window = self[held].window
    let environment = self[held].environment ?? window?[held].environment
    let departed = self[held].eventRouting.departure?.position
    return TreePosition(
      above: departed, name: name, treeStreams: ownStreams + (departed?.treeStreams ?? []),
      environment: environment, eventEnvironment: environment ?? departed?.eventEnvironment ?? .default,
      window: window, treeSlot: window?.hierarchy ?? hierarchy)
  }

  /// Under the link lock: drops the cached positions of this controller and
  /// its subtree.
  ///
  /// A controller with no cached position has none below it either (positions
  /// are cached top-down), so the walk stops there: its cost is the number of
  /// cached positions dropped.
  func invalidatePositions(_ held: LinkSection) {
    guard self[held].cachedPosition != nil else { return }
    var stack: [ControllerNode] = [self]
    while let node = stack.popLast() {
      node[held].cachedPosition = nil
      for child in node[held].children where child.node[held].cachedPosition != nil {
        stack.append(child.node)
      }
      if let presented = node[held].presented, presented.node[held].cachedPosition != nil {
        stack.append(presented.node)
      }
    }
  }
}
