import CommandLineOptions
import Containment

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// event-stream-consumer: builds a small tree, subscribes to its tree-wide
// event stream, drives a scripted scenario and prints a live timeline.
//
//   swift run event-stream-consumer            # readable timeline
//   swift run event-stream-consumer --json     # JSON Lines, one event per line
//   swift run event-stream-consumer --svg t.svg  # also write a timeline picture

let options = ConsumerOptions.parseOrExit()
let format = options.format

let scenario = Scenario(clock: ContinuousClock())
// Subscribe before anything happens; the first element is the root's state.
let stream = scenario.root.treeEvents(policy: .keepNewest(4096))
let subscribed = MarkerTimes(subscribedOn: scenario.environment)

if format == .text {
  print("time    path               event                            tx     detail")
}
let picture = try await withThrowingTaskGroup(of: TimelinePicture?.self) { group in
  group.addTask {
    var markerTimes = subscribed
    var picture = TimelinePicture()
    for await received in stream {
      let event = markerTimes.stamped(received)
      print(format.line(for: event))
      picture.add(event)
    }
    return picture
  }
  group.addTask {
    try await scenario.run()
    return nil
  }
  var picture = TimelinePicture()
  for try await result in group { if let result { picture = result } }
  return picture
}

if let svgPath = options.svgPath {
  guard let file = fopen(svgPath, "w") else {
    StandardStream.error.write("event-stream-consumer: cannot write \(svgPath)\n")
    exit(ExitStatus.failure.code)
  }
  let written = fputs(picture.svg(), file) >= 0
  guard fclose(file) == 0, written else {
    StandardStream.error.write("event-stream-consumer: cannot write \(svgPath)\n")
    exit(ExitStatus.failure.code)
  }
  if format == .text { print("wrote \(svgPath)") }
}
