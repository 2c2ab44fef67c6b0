// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

let package = Package(
  name: "Containment",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Containment", targets: ["Containment"]),
    .library(name: "ContainmentTestKit", targets: ["ContainmentTestKit"]),
    .executable(name: "containment-stress", targets: ["ContainmentStress"]),
    .executable(name: "containment-bench", targets: ["ContainmentBench"]),
    .executable(name: "event-stream-consumer", targets: ["EventStreamConsumer"]),
    .executable(name: "two-tab", targets: ["TwoTab"]),
    .executable(name: "session-server", targets: ["SessionServer"]),
  ],
  targets: [
    .target(name: "ContainmentGeometry", swiftSettings: strict),
    .target(name: "ContainmentLocking", swiftSettings: strict),
    .target(name: "Containment", dependencies: ["ContainmentGeometry", "ContainmentLocking"], swiftSettings: strict),
    .target(name: "ContainmentTestKit", dependencies: ["Containment", "ContainmentLocking"], swiftSettings: strict),
    .target(name: "CommandLineOptions", swiftSettings: strict),
    .target(name: "SoakVerdicts", swiftSettings: strict),
    .executableTarget(
      name: "ContainmentStress",
      dependencies: ["Containment", "ContainmentLocking", "ContainmentTestKit", "CommandLineOptions", "SoakVerdicts"],
      swiftSettings: strict),
    .executableTarget(
      name: "ContainmentBench", dependencies: ["Containment", "ContainmentLocking", "CommandLineOptions"],
      swiftSettings: strict),
    .executableTarget(
      name: "EventStreamConsumer", dependencies: ["Containment", "CommandLineOptions"],
      path: "Examples/EventStreamConsumer", swiftSettings: strict),
    .executableTarget(
      name: "TwoTab", dependencies: ["Containment", "ContainmentTestKit", "CommandLineOptions"],
      path: "Examples/TwoTab",
      swiftSettings: strict),
    .executableTarget(
      name: "SessionServer", dependencies: ["Containment", "CommandLineOptions"], path: "Examples/SessionServer",
      swiftSettings: strict),
    .testTarget(
      name: "ContainmentTests",
      dependencies: ["Containment", "ContainmentLocking", "ContainmentTestKit", "CommandLineOptions"],
      swiftSettings: strict
    ),
    .testTarget(name: "SoakVerdictsTests", dependencies: ["SoakVerdicts"], swiftSettings: strict),
  ]
)
