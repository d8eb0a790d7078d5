import Foundation
import NearbyTestSupport
import Testing

/// `nearby --version` says the version (the file VERSION) and the commit it was built from;
/// packaging/build-info.sh finds the commit in a git checkout, in a `git archive` tarball
/// (export-subst), or says "unknown" (specs: DEVELOPERS.md, "Version").
@Suite struct VersionTests {
    static let script = PackagePaths.file("packaging/build-info.sh")

    func sh(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments, environment: environment)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func versionSaysTheVersionFileAndTheCommit() async throws {
        let version = try String(contentsOf: PackagePaths.file("VERSION"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(version)")
        let commit = try await sh([Self.script.path, "commit"])
        let head = try await sh(["-c", "git -C \"$0\" rev-parse --short=12 HEAD", PackagePaths.root.path])
        #expect(commit == head || commit == head + "-dirty", "\(commit) vs HEAD \(head)")
        let run = try await ChildProcess.run(PackagePaths.nearby, ["--version"])
        #expect(run.status == 0)
        // The binary was built from the sources as they are now (rebuild after committing).
        #expect(run.stdout == "\(version) (commit \(commit))\n", "\(run.stdout)")
    }

    /// A tarball made by `git archive` (GitHub's "Download ZIP" too) has no .git, but
    /// packaging/archive-commit was filled in; a copy without either says "unknown";
    /// NEARBY_COMMIT overrides both.
    @Test func theCommitComesFromAGitArchiveTarballOrIsUnknown() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let head = try await sh(["-c", "git -C \"$0\" rev-parse --short=12 HEAD", PackagePaths.root.path])
        _ = try await sh([
            "-c", "git -C \"$0\" archive HEAD VERSION packaging/build-info.sh packaging/archive-commit | tar -x -C \"$1\"",
            PackagePaths.root.path, scratch.path,
        ])
        let archived = scratch.appendingPathComponent("packaging/build-info.sh").path
        #expect(try await sh([archived, "commit"]) == head)
        #expect(try await sh([archived, "version"]) == (try await sh([Self.script.path, "version"])))
        // The generated Swift file, as the build plugin writes it.
        let generated = scratch.appendingPathComponent("out/BuildInfo.swift")
        _ = try await sh([archived, "swift", generated.path])
        let text = try String(contentsOf: generated, encoding: .utf8)
        #expect(text.contains("static let commit = \"\(head)\""), "\(text)")

        try "$Format:%H$\n".write(to: scratch.appendingPathComponent("packaging/archive-commit"), atomically: true, encoding: .utf8)
        #expect(try await sh([archived, "commit"]) == "unknown")
        #expect(try await sh([archived, "commit"], environment: ["NEARBY_COMMIT": "abc123"]) == "abc123")
    }
}
