/// How a presented controller covers its presenter (§10), after UIKit's
/// `modalPresentationStyle`.
///
/// A small struct with static members, so that styles can be added without
/// breaking a `switch`.
public struct PresentationStyle: Sendable, Hashable, Codable, CustomStringConvertible {
  enum Kind: String, Sendable, Hashable, Codable {
    case fullScreen, overFullScreen, pageSheet, formSheet
  }

  let kind: Kind

  /// Covers the window; once the presentation completes, the layer below it
  /// (the presenter's tree) leaves the window and gets its disappearance
  /// hooks (P1).
  public static let fullScreen = PresentationStyle(kind: .fullScreen)
  /// Covers the window; the presenter stays on screen and hears nothing (P2).
  public static let overFullScreen = PresentationStyle(kind: .overFullScreen)
  /// A sheet over the window, below a strip at the top; the presenter stays
  /// on screen and hears nothing (P2).
  ///
  /// Can be dismissed interactively.
  public static let pageSheet = PresentationStyle(kind: .pageSheet)
  /// A centred sheet; the presenter stays on screen and hears nothing (P2).
  public static let formSheet = PresentationStyle(kind: .formSheet)

  /// Whether it is a sheet, which can be dismissed interactively (P6).
  public var isSheet: Bool { kind == .pageSheet || kind == .formSheet }

  /// Whether the presenter's layer leaves the window once presented.
  public var hidesPresenter: Bool { kind == .fullScreen }

  /// A readable description.
  public var description: String { kind.rawValue }

  /// The presented view's frame in a window of `bounds`.
  func frame(in bounds: Rect) -> Rect {
    switch kind {
    case .fullScreen, .overFullScreen:
      return bounds
    case .pageSheet:
      let top = min(bounds.height, PresentationStyle.sheetTopInset)
      return Rect(x: bounds.minX, y: bounds.minY + top, width: bounds.width, height: bounds.height - top)
    case .formSheet:
      let width = min(bounds.width, 540)
      let height = min(bounds.height, 620)
      return Rect(
        x: bounds.minX + (bounds.width - width) / 2, y: bounds.minY + (bounds.height - height) / 2,
        width: width, height: height)
    }
  }

  /// The strip a page sheet leaves uncovered at the top of the window.
  static let sheetTopInset = 44.0
}
