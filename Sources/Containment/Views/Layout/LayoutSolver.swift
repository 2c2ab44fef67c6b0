public enum LayoutAttribute: Sendable, Hashable { case left }
public struct LayoutConstraint<Item: Hashable & Sendable>: Sendable, Hashable { public var item: Item }
public struct LayoutSolver<Item: Hashable & Sendable>: Sendable { public struct Node: Sendable { public var superview: Item?; public var frame: Rect }; public init() {}; public func solve(nodes: [Item: Node], constraints: [LayoutConstraint<Item>]) -> LayoutResult<Item> { LayoutResult(frames: nodes.mapValues(\.frame), unsatisfied: []) } }
public struct LayoutResult<Item: Hashable & Sendable>: Sendable { public var frames: [Item: Rect]; public var unsatisfied: [LayoutConstraint<Item>] }
