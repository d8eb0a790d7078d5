import Foundation
import PackagePlugin

/// Gives the `nearby` target its `BuildInfo` (version and commit, for `nearby --version`): runs
/// packaging/build-info.sh, which rewrites the generated file only when the version or the commit
/// changed. The version's one source is the file VERSION; the commit comes from git, from a `git
/// archive` tarball, or is "unknown" (packaging/build-info.sh says how).
///
/// A build command with inputs, not a prebuild command: SwiftPM skips prebuild commands when it
/// finds nothing to rebuild, so a commit made after the last build would not show. The inputs are
/// VERSION, the script, packaging/archive-commit and git's HEAD, HEAD's log (every commit,
/// checkout, rebase or reset appends to it) and index, wherever the git directory is (a worktree's
/// `.git` is a file naming it). A change to the working tree alone ("-dirty") shows once one of
/// these changes.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo").appending(path: "BuildInfo.swift")
        let script = root.appending(path: "packaging/build-info.sh")
        let inputs = [script, root.appending(path: "VERSION"), root.appending(path: "packaging/archive-commit")] + Self.gitFiles(root)
        return [
            .buildCommand(
                displayName: "BuildInfo: the version and commit of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, "swift", output.path],
                inputFiles: inputs.filter { FileManager.default.fileExists(atPath: $0.path) },
                outputFiles: [output])
        ]
    }

    /// git's files that change when HEAD moves or the index changes; none without a checkout.
    static func gitFiles(_ root: URL) -> [URL] {
        let dotGit = root.appending(path: ".git")
        var gitDirectory = dotGit
        if let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir:") {
            let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            gitDirectory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appending(path: path)
        }
        return ["HEAD", "logs/HEAD", "index"].map { gitDirectory.appending(path: $0) }
    }
}
