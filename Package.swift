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
    .plugin(name: "ContainmentHookNames", targets: ["ContainmentHookNames"]),
  ],
  targets: [
    .target(name: "ContainmentGeometry", swiftSettings: strict),
    .target(name: "ContainmentLocking", swiftSettings: strict),
    .target(name: "Containment", dependencies: ["ContainmentGeometry", "ContainmentLocking"], swiftSettings: strict),
    .target(name: "ContainmentTestKit", dependencies: ["Containment", "ContainmentLocking"], swiftSettings: strict),
    .target(name: "CommandLineOptions", swiftSettings: strict),
    .target(name: "SoakVerdicts", swiftSettings: strict),
    .target(name: "HookNameCheck", swiftSettings: strict),
    .executableTarget(
      name: "containment-hook-names", dependencies: ["HookNameCheck"],
      path: "Sources/ContainmentHookNamesTool", swiftSettings: strict),
    .plugin(name: "ContainmentHookNames", capability: .buildTool(), dependencies: ["containment-hook-names"]),
    .executableTarget(
      name: "ContainmentStress",
      dependencies: ["Containment", "ContainmentLocking", "ContainmentTestKit", "CommandLineOptions", "SoakVerdicts"],
      swiftSettings: strict),
    .executableTarget(
      name: "ContainmentBench", dependencies: ["Containment", "ContainmentLocking", "CommandLineOptions"],
      swiftSettings: strict),
    .executableTarget(
      name: "EventStreamConsumer", dependencies: ["Containment", "CommandLineOptions"],
      path: "Examples/EventStreamConsumer", swiftSettings: strict, plugins: ["ContainmentHookNames"]),
    .executableTarget(
      name: "TwoTab", dependencies: ["Containment", "ContainmentTestKit", "CommandLineOptions"],
      path: "Examples/TwoTab",
      swiftSettings: strict, plugins: ["ContainmentHookNames"]),
    .executableTarget(
      name: "SessionServer", dependencies: ["Containment", "CommandLineOptions"], path: "Examples/SessionServer",
      swiftSettings: strict, plugins: ["ContainmentHookNames"]),
    .testTarget(
      name: "ContainmentTests",
      dependencies: ["Containment", "ContainmentLocking", "ContainmentTestKit", "CommandLineOptions"],
      swiftSettings: strict, plugins: ["ContainmentHookNames"]
    ),
    .testTarget(name: "SoakVerdictsTests", dependencies: ["SoakVerdicts"], swiftSettings: strict),
    .testTarget(name: "HookNameCheckTests", dependencies: ["HookNameCheck"], swiftSettings: strict),
  ]
)
