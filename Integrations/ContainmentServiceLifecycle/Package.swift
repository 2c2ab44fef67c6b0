// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

// Containment as a swift-service-lifecycle `Service`, and its event streams
// through swift-log. A package of its own: the core package depends on nothing.
let package = Package(
  name: "ContainmentServiceLifecycle",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ContainmentServiceLifecycle", targets: ["ContainmentServiceLifecycle"]),
    .executable(name: "containment-service-demo", targets: ["ContainmentServiceDemo"]),
  ],
  dependencies: [
    .package(name: "Containment", path: "../.."),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.9.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.8.0"),
  ],
  targets: [
    .target(
      name: "ContainmentServiceLifecycle",
      dependencies: [
        .product(name: "Containment", package: "Containment"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "ContainmentServiceDemo",
      dependencies: [
        "ContainmentServiceLifecycle",
        .product(name: "Containment", package: "Containment"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "ContainmentServiceLifecycleTests",
      dependencies: [
        "ContainmentServiceLifecycle",
        .product(name: "Containment", package: "Containment"),
        .product(name: "ContainmentTestKit", package: "Containment"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "InMemoryLogging", package: "swift-log"),
      ],
      swiftSettings: strict
    ),
  ]
)
