// The tool behind the `ContainmentHookNames` build tool plugin:
// `containment-hook-names OUTPUT SOURCE...` checks the target's Swift sources
// together and, when no controller declares a verb's name as a hook, writes
// OUTPUT (a Swift file with a comment, which the plugin adds to the target so
// the build runs the check again when a source changes). On a finding it
// prints compiler-style errors to standard error and exits 1, failing the build.
import Foundation
import HookNameCheck

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, !output.hasPrefix("-") else {
  FileHandle.standardError.write(Data("usage: containment-hook-names OUTPUT SOURCE...\n".utf8))
  exit(64)
}
var files: [HookNameCheck.File] = []
for path in arguments.dropFirst() {
  guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("containment-hook-names: cannot read \(path)\n".utf8))
    exit(1)
  }
  files.append(HookNameCheck.File(path: path, text: String(decoding: data, as: UTF8.self)))
}
let findings = HookNameCheck.findings(in: files)
if !findings.isEmpty {
  FileHandle.standardError.write(Data(findings.map { "\($0)\n" }.joined().utf8))
  exit(1)
}
let stamp = """
  // Checked by containment-hook-names: no controller in this target declares
  // willMove(toParent:) or didMove(toParent:), the runtime's verbs.

  """
do {
  try Data(stamp.utf8).write(to: URL(fileURLWithPath: output))
} catch {
  FileHandle.standardError.write(Data("containment-hook-names: cannot write \(output): \(error)\n".utf8))
  exit(1)
}
