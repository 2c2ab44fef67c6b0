import ContainmentTestKit
import Testing

@testable import Containment

/// §5 S1–S2: the split controller.
@Suite(.timeLimit(.minutes(1)))
struct SplitRulesTests {
  private func split(_ f: Fixture, traits: TraitCollection) async throws
    -> (Window, SplitViewController, RecordingController, RecordingController)
  {
    let p = f.controller("P")
    let s = f.controller("S")
    let split = SplitViewController(name: "Split")
    try await split.setViewControllers(primary: p, secondary: s)
    let window = Window(traits: traits)
    try await window.setRootViewController(split)
    return (window, split, p, s)
  }

  @Test func regularShowsBothColumnsSideBySide_S1() async throws {
    let f = Fixture()
    let (window, split, p, s) = try await split(f, traits: TraitCollection(horizontalSizeClass: .regular))
    #expect(
      f.log.take() == [
        "P.willMove(Split)", "S.willMove(Split)", "P.didMove(Split)", "S.didMove(Split)",
        "P.viewDidLoad", "S.viewDidLoad",
        "P.viewWillAppear", "S.viewWillAppear", "P.viewIsAppearing", "S.viewIsAppearing",
        "P.viewDidAppear", "S.viewDidAppear",
      ])
    #expect(!split.isCollapsed)
    #expect(p.viewIfLoaded?.frame == Rect(x: 0, y: 0, width: 320, height: 768))
    #expect(s.viewIfLoaded?.frame == Rect(x: 320, y: 0, width: 1024 - 320, height: 768))
    withExtendedLifetime(window) {}
    #expect(split.checkInvariants().isEmpty)
  }

  @Test func compactShowsOneColumn_S1() async throws {
    let f = Fixture()
    let (window, split, p, s) = try await split(f, traits: TraitCollection(horizontalSizeClass: .compact))
    #expect(
      f.log.take() == [
        "P.willMove(Split)", "S.willMove(Split)", "P.didMove(Split)", "S.didMove(Split)",
        "P.viewDidLoad", "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear",
      ])
    #expect(split.isCollapsed)
    #expect(split.shownColumn == .primary)
    #expect(!s.isViewLoaded)
    #expect(p.viewIfLoaded?.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
    try await split.show(.secondary)
    #expect(
      f.log.take() == [
        "S.viewDidLoad", "P.viewWillDisappear", "S.viewWillAppear", "S.viewIsAppearing",
        "P.viewDidDisappear", "S.viewDidAppear",
      ])
    #expect(s.viewIfLoaded?.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
    try await split.show(.primary)
    #expect(
      f.log.take() == [
        "S.viewWillDisappear", "P.viewWillAppear", "P.viewIsAppearing", "S.viewDidDisappear", "P.viewDidAppear",
      ])
    withExtendedLifetime(window) {}
    #expect(split.checkInvariants().isEmpty)
  }

  @Test func collapseAndExpandKeepHooksBalanced_S2() async throws {
    let f = Fixture()
    let (window, split, p, s) = try await split(f, traits: TraitCollection(horizontalSizeClass: .regular))
    _ = f.log.take()
    for _ in 0..<2 {
      try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact))
      #expect(
        f.log.take() == [
          "P.traitCollectionDidChange", "S.traitCollectionDidChange", "S.viewWillDisappear", "S.viewDidDisappear",
        ])
      #expect(split.isCollapsed)
      #expect(s.viewIfLoaded?.superview == nil)
      #expect(p.viewIfLoaded?.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
      #expect(split.checkInvariants().isEmpty)
      try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .regular))
      #expect(
        f.log.take() == [
          "P.traitCollectionDidChange", "S.traitCollectionDidChange",
          "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear",
        ])
      #expect(!split.isCollapsed)
      #expect(p.viewIfLoaded?.frame == Rect(x: 0, y: 0, width: 320, height: 768))
      #expect(s.viewIfLoaded?.frame == Rect(x: 320, y: 0, width: 1024 - 320, height: 768))
      #expect(split.checkInvariants().isEmpty)
    }
    #expect(p.node.appearanceState == .appeared && s.node.appearanceState == .appeared)
    withExtendedLifetime(window) {}
  }

  @Test func delegateChoosesTheColumnThatStaysShown_S2() async throws {
    let f = Fixture()
    let (window, split, p, s) = try await split(f, traits: TraitCollection(horizontalSizeClass: .regular))
    let delegate = RecordingSplitDelegate(log: f.log, keeps: .secondary)
    split.delegate = delegate
    _ = f.log.take()
    try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .compact))
    #expect(
      f.log.take() == [
        "P.traitCollectionDidChange", "S.traitCollectionDidChange",
        "D.topColumn(proposed: primary)=secondary", "P.viewWillDisappear", "P.viewDidDisappear", "D.didCollapse",
      ])
    #expect(split.shownColumn == .secondary)
    #expect(s.viewIfLoaded?.frame == Rect(x: 0, y: 0, width: 1024, height: 768))
    try await window.setTraitCollection(TraitCollection(horizontalSizeClass: .regular))
    #expect(
      f.log.take() == [
        "P.traitCollectionDidChange", "S.traitCollectionDidChange",
        "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear", "D.didExpand",
      ])
    #expect(p.node.appearanceState == .appeared && s.node.appearanceState == .appeared)
    withExtendedLifetime(window) {}
    #expect(split.checkInvariants().isEmpty)
  }

  @Test func replacingAShownColumnMovesAndSwapsItsView_S1() async throws {
    let f = Fixture()
    let (window, split, p, s) = try await split(f, traits: TraitCollection(horizontalSizeClass: .regular))
    let t = f.controller("T")
    _ = f.log.take()
    try await split.setViewControllers(primary: p, secondary: t)
    #expect(
      f.log.take() == [
        "S.willMove(nil)", "T.willMove(Split)", "T.viewDidLoad",
        "S.viewWillDisappear", "T.viewWillAppear", "T.viewIsAppearing", "S.viewDidDisappear", "T.viewDidAppear",
        "S.didMove(nil)", "T.didMove(Split)",
      ])
    #expect(s.parent == nil && s.viewIfLoaded?.superview == nil)
    #expect(t.viewIfLoaded?.frame == Rect(x: 320, y: 0, width: 1024 - 320, height: 768))
    #expect(names(split.children) == ["P", "T"])
    withExtendedLifetime(window) {}
    #expect(split.checkInvariants().isEmpty)
  }
}
