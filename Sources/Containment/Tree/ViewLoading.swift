/// The controllers whose `viewDidLoad` the current task is running: their
/// `view` is readable from inside it.
enum ViewLoading {
  @TaskLocal static var current: Set<ControllerID> = []
}
