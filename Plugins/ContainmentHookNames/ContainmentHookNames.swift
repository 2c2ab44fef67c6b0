import PackagePlugin

/// Fails the build of a target in which a controller declares
/// `willMove(toParent:)` or `didMove(toParent:)`.
///
/// In Containment those are the verbs a container calls; the hooks are
/// `viewWillMove(toParent:)` and `viewDidMove(toParent:)`. Swift accepts
/// such a declaration silently (the runtime never calls it, and a
/// container's call on the concrete type would run it instead of the
/// verb), so this plugin checks the target's sources on every build that
/// changes them and reports each one as an error at its line.
@main
struct ContainmentHookNames: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
    let stamp = context.pluginWorkDirectoryURL.appending(path: "\(target.name)HookNamesChecked.swift")
    return [
      .buildCommand(
        displayName: "Checking hook names in \(target.name)",
        executable: try context.tool(named: "containment-hook-names").url,
        arguments: [stamp.path] + sources.map(\.path),
        inputFiles: sources,
        outputFiles: [stamp])
    ]
  }
}
