import Containment
import Testing

struct LayoutSolverTests {
  private typealias Constraint = LayoutConstraint<String>
  private typealias Node = LayoutSolver<String>.Node

  private let solver = LayoutSolver<String>()

  @Test func pinsEdgesToSuperviewWithInsets() {
    let nodes: [String: Node] = [
      "window": Node(frame: Rect(x: 100, y: 50, width: 320, height: 480)),
      "content": Node(superview: "window", frame: Rect(x: 5, y: 5, width: 10, height: 10)),
    ]
    let constraints = [
      Constraint(item: "content", attribute: .left, relatedItem: "window", constant: 16),
      Constraint(item: "content", attribute: .top, relatedItem: "window", constant: 20),
      Constraint(item: "content", attribute: .right, relatedItem: "window", constant: -16),
      Constraint(item: "content", attribute: .bottom, relatedItem: "window", constant: -8),
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    // Reads the window's bounds, not its frame: the window's origin (100, 50) plays no part.
    #expect(result.frames["content"] == Rect(x: 16, y: 20, width: 288, height: 452))
    #expect(result.frames["window"] == Rect(x: 100, y: 50, width: 320, height: 480))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func fixedSizeCenteredInSuperview() {
    let nodes: [String: Node] = [
      "panel": Node(frame: Rect(x: 0, y: 0, width: 300, height: 200)),
      "badge": Node(superview: "panel", frame: .zero),
    ]
    let constraints = [
      Constraint(item: "badge", attribute: .width, constant: 100),
      Constraint(item: "badge", attribute: .height, constant: 50),
      Constraint(item: "badge", attribute: .centerX, relatedItem: "panel"),
      Constraint(item: "badge", attribute: .centerY, relatedItem: "panel"),
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    #expect(result.frames["badge"] == Rect(x: 100, y: 75, width: 100, height: 50))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func siblingChainDeclaredInReverseOrderIsSolved() {
    let start = Rect(x: 0, y: 0, width: 50, height: 30)
    let nodes: [String: Node] = [
      "row": Node(frame: Rect(x: 0, y: 0, width: 400, height: 100)),
      "a": Node(superview: "row", frame: start),
      "b": Node(superview: "row", frame: start),
      "c": Node(superview: "row", frame: start),
    ]
    let constraints = [
      Constraint(item: "c", attribute: .left, relatedItem: "b", relatedAttribute: .right, constant: 8),
      Constraint(item: "c", attribute: .top, relatedItem: "b"),
      Constraint(item: "b", attribute: .left, relatedItem: "a", relatedAttribute: .right, constant: 8),
      Constraint(item: "b", attribute: .top, relatedItem: "a"),
      Constraint(item: "a", attribute: .left, relatedItem: "row", constant: 10),
      Constraint(item: "a", attribute: .top, relatedItem: "row", constant: 10),
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    // Only the leading edges are constrained, so every view moves and keeps its size.
    #expect(result.frames["a"] == Rect(x: 10, y: 10, width: 50, height: 30))
    #expect(result.frames["b"] == Rect(x: 68, y: 10, width: 50, height: 30))
    #expect(result.frames["c"] == Rect(x: 126, y: 10, width: 50, height: 30))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func multiplierScalesRelatedAttribute() {
    let nodes: [String: Node] = [
      "screen": Node(frame: Rect(x: 0, y: 0, width: 300, height: 200)),
      "sidebar": Node(superview: "screen", frame: Rect(x: 9, y: 9, width: 9, height: 9)),
    ]
    let constraints = [
      Constraint(item: "sidebar", attribute: .width, relatedItem: "screen", multiplier: 0.5),
      Constraint(item: "sidebar", attribute: .left, relatedItem: "screen"),
      Constraint(item: "sidebar", attribute: .height, relatedItem: "screen", multiplier: 0.25),
      Constraint(item: "sidebar", attribute: .top, constant: 0),
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    #expect(result.frames["sidebar"] == Rect(x: 0, y: 0, width: 150, height: 50))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func nestedChildResolvesAgainstItsParentsSolvedFrame() {
    let nodes: [String: Node] = [
      "window": Node(frame: Rect(x: 0, y: 0, width: 400, height: 300)),
      "panel": Node(superview: "window", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      "label": Node(superview: "panel", frame: Rect(x: 0, y: 0, width: 10, height: 10)),
    ]
    // The child's constraints come first; the parent must still be solved before it.
    let constraints = [
      Constraint(item: "label", attribute: .right, relatedItem: "panel", constant: -10),
      Constraint(item: "label", attribute: .width, constant: 40),
      Constraint(item: "label", attribute: .top, relatedItem: "panel", constant: 5),
      Constraint(item: "label", attribute: .height, constant: 20),
      Constraint(item: "panel", attribute: .left, relatedItem: "window", constant: 20),
      Constraint(item: "panel", attribute: .right, relatedItem: "window", constant: -20),
      Constraint(item: "panel", attribute: .top, relatedItem: "window", constant: 20),
      Constraint(item: "panel", attribute: .height, constant: 100),
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    #expect(result.frames["panel"] == Rect(x: 20, y: 20, width: 360, height: 100))
    // In the panel's coordinates: right edge at 360 - 10, not at the panel's old width 100 - 10.
    #expect(result.frames["label"] == Rect(x: 310, y: 5, width: 40, height: 20))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func conflictingConstraintsAreReportedAndFirstDeclaredWins() {
    let nodes: [String: Node] = [
      "root": Node(frame: Rect(x: 0, y: 0, width: 300, height: 200)),
      "box": Node(superview: "root", frame: Rect(x: 5, y: 5, width: 10, height: 10)),
    ]
    let width100 = Constraint(item: "box", attribute: .width, constant: 100)
    let width200 = Constraint(item: "box", attribute: .width, constant: 200)
    let left0 = Constraint(item: "box", attribute: .left, relatedItem: "root")
    let right50 = Constraint(item: "box", attribute: .right, constant: 50)
    let top150 = Constraint(item: "box", attribute: .top, constant: 150)
    let bottom100 = Constraint(item: "box", attribute: .bottom, constant: 100)

    let result = solver.solve(
      nodes: nodes, constraints: [width100, width200, left0, right50, top150, bottom100])

    // Horizontal: width 100 and left 0 determine the axis; the rest is only checked.
    // Vertical: bottom above top would need a negative height, so it collapses to zero at top.
    #expect(result.frames["box"] == Rect(x: 0, y: 150, width: 100, height: 0))
    #expect(result.unsatisfied == [width200, right50, bottom100])
  }

  @Test func cyclicSiblingConstraintsAreReportedAndDependentsStillSolved() {
    let start = Rect(x: 0, y: 0, width: 10, height: 10)
    let nodes: [String: Node] = [
      "root": Node(frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      "a": Node(superview: "root", frame: start),
      "b": Node(superview: "root", frame: start),
      "c": Node(superview: "root", frame: start),
    ]
    let aBelowB = Constraint(item: "a", attribute: .top, relatedItem: "b", relatedAttribute: .bottom, constant: 10)
    let bBelowA = Constraint(item: "b", attribute: .top, relatedItem: "a", relatedAttribute: .bottom, constant: 10)
    let cBelowA = Constraint(item: "c", attribute: .top, relatedItem: "a", relatedAttribute: .bottom, constant: 1)

    let result = solver.solve(nodes: nodes, constraints: [aBelowB, cBelowA, bBelowA])

    // The cycle never settles: its views keep their frames; the view hanging off it is solved.
    #expect(result.frames["a"] == start)
    #expect(result.frames["b"] == start)
    #expect(result.frames["c"] == Rect(x: 0, y: 11, width: 10, height: 10))
    #expect(result.unsatisfied == [aBelowB, bBelowA])
  }

  @Test func unsupportedConstraintsAreReportedWithoutTrapping() {
    let nodes: [String: Node] = [
      "root": Node(frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      "left": Node(superview: "root", frame: Rect(x: 0, y: 0, width: 50, height: 100)),
      "right": Node(superview: "root", frame: Rect(x: 50, y: 0, width: 50, height: 100)),
      "leftChild": Node(superview: "left", frame: Rect(x: 1, y: 1, width: 1, height: 1)),
      "rightChild": Node(superview: "right", frame: Rect(x: 2, y: 2, width: 2, height: 2)),
      "loopA": Node(superview: "loopB", frame: Rect(x: 3, y: 3, width: 3, height: 3)),
      "loopB": Node(superview: "loopA", frame: Rect(x: 4, y: 4, width: 4, height: 4)),
    ]
    let onRoot = Constraint(item: "root", attribute: .width, constant: 10)
    let toCousin = Constraint(item: "leftChild", attribute: .left, relatedItem: "rightChild")
    let onUnknown = Constraint(item: "ghost", attribute: .left, constant: 1)
    let toUnknown = Constraint(item: "left", attribute: .left, relatedItem: "ghost")
    let inSuperviewCycle = Constraint(item: "loopA", attribute: .left, constant: 1)
    let notFinite = Constraint(item: "right", attribute: .left, constant: .infinity)

    let constraints = [onRoot, toCousin, onUnknown, toUnknown, inSuperviewCycle, notFinite]
    let result = solver.solve(nodes: nodes, constraints: constraints)

    #expect(result.unsatisfied == constraints)
    #expect(result.frames == nodes.mapValues(\.frame))
  }

  @Test func viewWithoutConstraintsKeepsItsFrame() {
    let nodes: [String: Node] = [
      "root": Node(frame: Rect(x: 3, y: 4, width: 300, height: 200)),
      "still": Node(superview: "root", frame: Rect(x: 7, y: 8, width: 9, height: 10)),
      "moved": Node(superview: "root", frame: Rect(x: 0, y: 0, width: 20, height: 20)),
    ]
    let constraints = [
      Constraint(item: "moved", attribute: .left, relatedItem: "still", relatedAttribute: .right)
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    #expect(result.frames["still"] == Rect(x: 7, y: 8, width: 9, height: 10))
    #expect(result.frames["root"] == Rect(x: 3, y: 4, width: 300, height: 200))
    #expect(result.frames["moved"] == Rect(x: 16, y: 0, width: 20, height: 20))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func singleConstrainedAttributeKeepsCurrentSize() {
    let nodes: [String: Node] = [
      "root": Node(frame: Rect(x: 0, y: 0, width: 300, height: 200)),
      "box": Node(superview: "root", frame: Rect(x: 30, y: 40, width: 100, height: 60)),
    ]
    let constraints = [
      Constraint(item: "box", attribute: .width, constant: 50),
      Constraint(item: "box", attribute: .centerY, relatedItem: "root"),
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    // Width alone keeps the left edge; centerY alone keeps the height.
    #expect(result.frames["box"] == Rect(x: 30, y: 70, width: 50, height: 60))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func aspectRatioFromTheItemItself() {
    let nodes: [String: Node] = [
      "root": Node(frame: Rect(x: 0, y: 0, width: 300, height: 200)),
      "image": Node(superview: "root", frame: .zero),
    ]
    // Declared before the width it depends on.
    let constraints = [
      Constraint(item: "image", attribute: .height, relatedItem: "image", relatedAttribute: .width, multiplier: 0.75),
      Constraint(item: "image", attribute: .width, constant: 120),
    ]

    let result = solver.solve(nodes: nodes, constraints: constraints)

    #expect(result.frames["image"] == Rect(x: 0, y: 0, width: 120, height: 90))
    #expect(result.unsatisfied.isEmpty)
  }

  @Test func constraintDescriptionReadsAsAnEquation() {
    let offset = Constraint(item: "b", attribute: .left, relatedItem: "a", relatedAttribute: .right, constant: 8)
    let scaled = Constraint(item: "b", attribute: .width, relatedItem: "a", multiplier: 0.5, constant: -2)
    let fixed = Constraint(item: "b", attribute: .height, constant: 44)

    #expect(offset.description == "b.left == a.right + 8.0")
    #expect(scaled.description == "b.width == 0.5 * a.width - 2.0")
    #expect(fixed.description == "b.height == 44.0")
  }
}

struct GeometryTests {
  @Test func rectEdgesAndCenters() {
    let rect = Rect(x: 10, y: 20, width: 100, height: 50)

    #expect([rect.minX, rect.midX, rect.maxX] == [10, 60, 110])
    #expect([rect.minY, rect.midY, rect.maxY] == [20, 45, 70])
    #expect([rect.width, rect.height] == [100, 50])
    #expect(Rect.zero == Rect(origin: .zero, size: .zero))
  }

  @Test func insetByShrinksSymmetricallyAndNeverGoesNegative() {
    let rect = Rect(x: 0, y: 0, width: 100, height: 50)

    #expect(rect.insetBy(dx: 10, dy: 5) == Rect(x: 10, y: 5, width: 80, height: 40))
    #expect(rect.insetBy(dx: -10, dy: 0) == Rect(x: -10, y: 0, width: 120, height: 50))
    #expect(rect.insetBy(dx: 60, dy: 0) == Rect(x: 50, y: 0, width: 0, height: 50))
    #expect(rect.inset(by: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)) == Rect(x: 2, y: 1, width: 94, height: 46))
  }

  @Test func containsIsHalfOpen() {
    let rect = Rect(x: 0, y: 0, width: 10, height: 10)

    #expect(rect.contains(Point(x: 0, y: 0)))
    #expect(rect.contains(Point(x: 9.5, y: 9.5)))
    #expect(!rect.contains(Point(x: 10, y: 5)))
    #expect(!rect.contains(Point(x: 5, y: -0.1)))
    #expect(!Rect.zero.contains(.zero))
  }

  @Test func descriptionsOmitTrailingZeroFractions() {
    #expect(Rect(x: 0, y: 0, width: 100, height: 50).description == "(x: 0, y: 0, w: 100, h: 50)")
    #expect(Point(x: -3, y: 2.5).description == "(x: -3, y: 2.5)")
    #expect(Size(width: 1, height: 0.25).description == "(w: 1, h: 0.25)")
    #expect(EdgeInsets(all: 8).description == "(top: 8, left: 8, bottom: 8, right: 8)")
  }
}
