// MARK: - Axis resolution

/// The role an attribute plays on its axis.
enum AxisRole {
  case start
  case end
  case length
  case center
}

extension LayoutAttribute {
  var isHorizontal: Bool {
    switch self {
    case .left, .right, .width, .centerX: true
    case .top, .bottom, .height, .centerY: false
    }
  }

  var role: AxisRole {
    switch self {
    case .left, .top: .start
    case .right, .bottom: .end
    case .width, .height: .length
    case .centerX, .centerY: .center
    }
  }
}

/// The first two distinct roles demanded on one axis of one view, with their values.
struct AxisConstraints {
  private var demands: [(role: AxisRole, value: Double)] = []

  /// Records a demand unless its role is already fixed or the axis is already determined.
  mutating func offer(_ role: AxisRole, _ value: Double) {
    guard demands.count < 2, !demands.contains(where: { $0.role == role }) else {
      return
    }
    demands.append((role, value))
  }

  /// The axis' start and length, keeping `start`/`length` where the demands leave them free.
  func resolve(start: Double, length: Double) -> (start: Double, length: Double) {
    var start = start
    var length = length
    func value(_ role: AxisRole) -> Double? {
      demands.first { $0.role == role }?.value
    }
    switch (value(.start), value(.end), value(.length), value(.center)) {
    case (let s?, let e?, _, _):
      start = s
      length = e - s
    case (let s?, _, let l?, _):
      start = s
      length = l
    case (let s?, _, _, let c?):
      start = s
      length = 2 * (c - s)
    case (_, let e?, let l?, _):
      start = e - l
      length = l
    case (_, let e?, _, let c?):
      length = 2 * (e - c)
      start = e - length
    case (_, _, let l?, let c?):
      start = c - l / 2
      length = l
    case (let s?, nil, nil, nil):
      start = s
    case (nil, let e?, nil, nil):
      start = e - length
    case (nil, nil, let l?, nil):
      length = l
    case (nil, nil, nil, let c?):
      start = c - length / 2
    case (nil, nil, nil, nil):
      break
    }
    guard length < 0, let first = demands.first else {
      return (start, length)
    }
    // A negative size is impossible: collapse to zero at the first demand's position.
    switch first.role {
    case .start, .end, .center:
      return (first.value, 0)
    case .length:
      return (start, 0)
    }
  }
}
