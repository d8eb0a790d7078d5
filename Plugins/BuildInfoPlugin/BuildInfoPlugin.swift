import Foundation
import PackagePlugin

/// Gives the `nearby` target its `BuildInfo` (version and commit, for `nearby --version`): runs
/// packaging/build-info.sh before every build, which rewrites the generated file only when the
/// version or the commit changed. The version's one source is the file VERSION; the commit comes
/// from git, from a `git archive` tarball, or is "unknown" (packaging/build-info.sh says how).
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let directory = context.pluginWorkDirectoryURL.appending(path: "BuildInfo")
        let script = context.package.directoryURL.appending(path: "packaging/build-info.sh")
        return [
            .prebuildCommand(
                displayName: "BuildInfo: the version and commit of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, "swift", directory.appending(path: "BuildInfo.swift").path],
                outputFilesDirectory: directory)
        ]
    }
}
