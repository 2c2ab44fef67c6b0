import ContainmentLocking

/// Walks over a controller tree under the link lock.
enum TreeWalk {
  /// Under the link lock: `root` and everything below it (children, and the
  /// controller it presents, which counts as below its presenter) in stop
  /// order: leaves first, siblings in reverse `children` order, each
  /// controller after everything below it — the reverse of a preorder walk.
  static func stopOrder(_ held: LinkSection, from root: any ViewController) -> [any ViewController] {
    preorder(held, from: root).reversed()
  }

  /// Under the link lock: `controller` and everything below it, each before
  /// what is below it: its children in order, then the controller it
  /// presents (which counts as below its presenter, after its children).
  ///
  /// Iterative: any depth, linear time.
  static func preorder(_ held: LinkSection, from controller: any ViewController) -> [any ViewController] {
    var result: [any ViewController] = []
    var stack: [any ViewController] = [controller]
    while let next = stack.popLast() {
      result.append(next)
      if let presented = next.node[held].presented { stack.append(presented) }
      stack.append(contentsOf: next.node[held].children.reversed())
    }
    return result
  }
}
