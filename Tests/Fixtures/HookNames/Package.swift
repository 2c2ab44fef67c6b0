// swift-tools-version: 6.0
// A user's package that applies the ContainmentHookNames plugin to a target
// in which a controller declares the verb `willMove(toParent:)` as if it were
// a hook: CI builds it and expects the build to fail with the plugin's error.
import PackageDescription

let package = Package(
  name: "HookNamesFixture",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Containment", path: "../../..")],
  targets: [
    .target(
      name: "Screens",
      dependencies: [.product(name: "Containment", package: "Containment")],
      plugins: [.plugin(name: "ContainmentHookNames", package: "Containment")])
  ]
)
