import Containment

/// A realistic lifecycle event, the element of the stream figures, so that
/// the raw `AsyncStream` and the runtime's broadcaster carry the same payload.
enum SampleEvents {
  static let controller = ControllerNode(name: "bench").id

  static func event(sequenceNumber: Int) -> LifecycleEvent {
    LifecycleEvent(
      controller: controller, name: "bench", path: "root/bench", sequenceNumber: sequenceNumber,
      transaction: nil, timestamp: .zero, kind: .viewWillAppear(animated: false))
  }
}
