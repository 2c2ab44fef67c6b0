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
  ],
  targets: [
    .target(name: "Containment", swiftSettings: strict),
    .target(name: "ContainmentTestKit", dependencies: ["Containment"], swiftSettings: strict),
    .testTarget(
      name: "ContainmentTests",
      dependencies: ["Containment", "ContainmentTestKit"],
      swiftSettings: strict
    ),
  ]
)
