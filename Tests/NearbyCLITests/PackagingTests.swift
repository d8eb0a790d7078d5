import Foundation
import NearbyTestSupport
import Testing

/// The generated files in packaging/ must cover the CLI as built: every top-level subcommand the
/// binary's --help lists appears in each completion script and in the man page. When a command
/// is added, `make packaging` regenerates them (this test says so when they are stale).
@Suite struct PackagingTests {
    static let generated = [
        "packaging/completions/nearby.bash", "packaging/completions/_nearby", "packaging/completions/nearby.fish",
        "packaging/man/nearby.1",
    ]

    /// The top-level subcommand names in `nearby --help`.
    func subcommands() async throws -> [String] {
        let run = try await ChildProcess.run(PackagePaths.nearby, ["--help"])
        #expect(run.status == 0)
        guard let section = run.stdout.range(of: "SUBCOMMANDS:\n") else {
            Issue.record("no SUBCOMMANDS section in:\n\(run.stdout)")
            return []
        }
        // The section ends at the first blank line.
        let body = run.stdout[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        return body.compactMap { line in
            // "  name    abstract": names start at column 2; continuation lines are indented further.
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    @Test func generatedFilesListEveryTopLevelSubcommand() async throws {
        let names = try await subcommands()
        #expect(names.contains("replay") && names.contains("config") && names.contains("doctor") && names.contains("bench"))
        for file in Self.generated {
            let text = try String(contentsOf: PackagePaths.file(file), encoding: .utf8)
            for name in names {
                let present = file.hasSuffix(".1") ? text.contains(".It Em \(name)\n") : text.contains(name)
                #expect(present, "\(file) does not know 'nearby \(name)': run `make packaging` and commit the result")
            }
        }
    }

    /// Every library product of Package.swift has a DocC catalog whose module page names it, and
    /// `make docs` (DOCS_TARGETS in the Makefile) renders it: a new library cannot ship unrendered.
    @Test func everyLibraryHasACatalogThatMakeDocsRenders() throws {
        let manifest = try String(contentsOf: PackagePaths.file("Package.swift"), encoding: .utf8)
        let libraries = manifest.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: ".library(name: \""), let end = line[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return String(line[start.upperBound..<end])
        }
        #expect(libraries.count >= 19 && libraries.contains("NearbySupport") && libraries.contains("Positioning"))
        let makefile = try String(contentsOf: PackagePaths.file("Makefile"), encoding: .utf8)
        // DOCS_TARGETS := A B \ (continued) C D
        let start = try #require(makefile.range(of: "DOCS_TARGETS   :="))
        var targets: [String] = []
        for line in makefile[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            targets += line.split(separator: " ").filter { $0 != "\\" }.map(String.init)
            if !line.hasSuffix("\\") { break }
        }
        for library in libraries {
            let page = "Sources/\(library)/\(library).docc/\(library).md"
            let text = try? String(contentsOf: PackagePaths.file(page), encoding: .utf8)
            #expect(text?.hasPrefix("# ``\(library)``") == true, "\(page) is missing or does not start with # ``\(library)``")
            #expect(targets.contains(library), "make docs does not render \(library): add it to DOCS_TARGETS")
        }
    }

    @Test func completionScriptsComeFromTheBinary() async throws {
        // The committed scripts are what argument-parser generates for this binary: compare the
        // parts that do not depend on other engineers' commands (the header and our subcommands).
        let bash = try await ChildProcess.run(PackagePaths.nearby, ["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        let committed = try String(contentsOf: PackagePaths.file("packaging/completions/nearby.bash"), encoding: .utf8)
        let firstLine = bash.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(committed.hasPrefix(firstLine + "\n"))
        for option in ["--on-enter", "--on-exit", "--on-lost", "--on-found", "--hook-timeout", "--log-level", "--speed", "--hci"] {
            #expect(bash.stdout.contains(option))
            #expect(committed.contains(option), "packaging/completions/nearby.bash lacks \(option): run `make packaging`")
        }
    }

    @Test func theServiceUnitRunsRangeUnprivilegedWithOnlyCapNetAdmin() throws {
        let unit = try String(contentsOf: PackagePaths.file("packaging/nearby.service"), encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for line in [
            "ExecStart=/usr/local/bin/nearby range --all --json", "User=nearby", "AmbientCapabilities=CAP_NET_ADMIN",
            "CapabilityBoundingSet=CAP_NET_ADMIN", "NoNewPrivileges=yes", "ProtectSystem=strict", "Environment=XDG_CONFIG_HOME=/etc",
        ] {
            #expect(lines.contains(line), "packaging/nearby.service lacks \(line)")
        }
        #expect(FileManager.default.fileExists(atPath: PackagePaths.file("packaging/99-nearby-uwb.rules").path))
    }
}
