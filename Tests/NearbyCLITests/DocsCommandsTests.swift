import Foundation
import NearbyTestSupport
import Testing

/// Every command shown in the guides (docs/*.md) and README.md runs here, top to bottom, against
/// the built `nearby`, the way DEVELOPERS.md ("Commands in the documentation") says to mark them:
///
/// - ```` ```sh ```` blocks: every line is a command (`\` continues a line; `#` lines are comments);
/// - ```` ```console ```` blocks: lines starting with `$ ` are commands, the rest is output (shown, not
///   compared);
/// - ```` ```sh norun: <why> ```` / ```` ```console norun: <why> ````: shown only (root, real hardware, a phone);
/// - `<!-- test: COMMAND -->` on a line of its own: a hidden command run at that point (start a
///   peer, write a config file, check an output with grep);
/// - `<!-- test: exit N -->`: the next command must exit with N (default 0);
/// - `<!-- test-sub: TEXT => REPLACEMENT -->`: from there on, shown commands run with TEXT replaced
///   (e.g. `--hci hci:0 => --hci tcp:127.0.0.1:$PORT1`, a Bumble controller started hidden);
/// - `<!-- docs-test: off (why) -->`: the whole file is not run (it says why).
///
/// A fence may be indented (a block in a list item); its lines lose that indentation.
///
/// One bash per file, so `export`, `cd` and files carry from block to block. It starts in a
/// scratch directory that links the sources' `data`, `docs`, `packaging`, `specs`, `Tests` and
/// `.build` (the venv with Bumble is `.build/venv`), with `HOME` and the XDG directories in the
/// scratch directory (an empty ~/.config/nearby), `nearby` on `PATH` (the built one), `$PORT1` to
/// `$PORT4` free TCP ports and `$NEARBY_SOURCES` the package root. Background jobs (`&`) are
/// stopped when the file ends.
@Suite struct DocsCommandsTests {
    struct Step: Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        var command: String
        var hidden = false
        var expectedExit: Int32 = 0
        var description: String { "\(file):\(line): \(command)" }
    }

    struct Document {
        var steps: [Step] = []
        var shownOnly = 0
        var off: String?
    }

    /// Reads a Markdown file's runnable commands (the convention above).
    static func parse(_ text: String, file: String) -> Document {
        var document = Document()
        var substitutions: [(String, String)] = []
        var nextExit: Int32 = 0
        var fence: (mode: String, run: Bool, indent: Int)?
        var pending: (line: Int, text: String)?
        func add(_ command: String, line: Int, hidden: Bool) {
            var command = command
            if !hidden { for (old, new) in substitutions { command = command.replacingOccurrences(of: old, with: new) } }
            document.steps.append(Step(file: file, line: line, command: command, hidden: hidden, expectedExit: nextExit))
            nextExit = 0
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A fence may be indented (a block inside a list item): its lines lose that indentation.
            let indent = raw.prefix { $0 == " " }.count
            var line = String(raw.dropFirst(indent))
            let number = index + 1
            if let current = fence {
                if line.hasPrefix("```") {
                    fence = nil
                    continue
                }
                guard current.run else { continue }
                line = String(raw.dropFirst(min(indent, current.indent)))
                var command: String
                if let continued = pending {
                    command = continued.text + "\n" + (current.mode == "console" && line.hasPrefix("> ") ? String(line.dropFirst(2)) : line)
                } else if current.mode == "console" {
                    guard line.hasPrefix("$ ") else { continue }
                    command = String(line.dropFirst(2))
                } else {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                    command = line
                }
                let start = pending?.line ?? number
                if command.hasSuffix("\\") {
                    pending = (start, command)
                } else {
                    pending = nil
                    add(command, line: start, hidden: false)
                }
                continue
            }
            if line.hasPrefix("```") {
                let words = line.dropFirst(3).split(separator: " ").map(String.init)
                let language = words.first ?? ""
                let norun = words.dropFirst().first?.hasPrefix("norun") == true
                let runnable = ["sh", "bash", "shell", "console"].contains(language)
                if runnable && norun { document.shownOnly += 1 }
                fence = (language == "console" ? "console" : "sh", runnable && !norun, indent)
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->") else { continue }
            let body = trimmed.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
            if body.hasPrefix("docs-test: off") {
                document.off = String(body.dropFirst("docs-test: off".count)).trimmingCharacters(in: .whitespaces)
            } else if body.hasPrefix("test-sub:") {
                let parts = body.dropFirst("test-sub:".count).components(separatedBy: " => ")
                if parts.count == 2 { substitutions.append((parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))) }
            } else if body.hasPrefix("test: exit ") , let code = Int32(body.dropFirst("test: exit ".count)) {
                nextExit = code
            } else if body.hasPrefix("test:") {
                add(String(body.dropFirst("test:".count)).trimmingCharacters(in: .whitespaces), line: number, hidden: true)
            }
        }
        return document
    }

    /// The bash script that runs a document's steps in order and stops at the first that fails,
    /// naming it (`@@ FAILED file:line`).
    static func script(_ document: Document) -> String {
        var script = """
            set -uo pipefail
            trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null' EXIT
            cd "$DOCS_TEST_SCRATCH"

            """
        for step in document.steps {
            let label = "\(step.file):\(step.line)"
            script += "echo '@@ \(label)' >&2\n\(step.command)\n"
            script += "__s=$?; if [ $__s != \(step.expectedExit) ]; then echo \"@@ FAILED \(label): exit $__s, expected \(step.expectedExit)\" >&2; exit 1; fi\n"
        }
        return script + "echo '@@ done' >&2\n"
    }

    /// README.md and every guide in docs/.
    static var files: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: PackagePaths.file("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    @Test(arguments: files) func theCommandsShownRun(_ file: String) async throws {
        let text = try String(contentsOf: PackagePaths.file(file), encoding: .utf8)
        let document = Self.parse(text, file: file)
        if let off = document.off {
            print("\(file): not run (docs-test: off \(off))")
            return
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("home/.config/nearby"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("home/.local/state"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in ["data", "docs", "packaging", "specs", "Tests", ".build"] {
            try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent(name), withDestinationURL: PackagePaths.file(name))
        }
        let scriptURL = scratch.appendingPathComponent("doc.sh")
        try Self.script(document).write(to: scriptURL, atomically: true, encoding: .utf8)
        let home = scratch.appendingPathComponent("home").path
        var environment = [
            "DOCS_TEST_SCRATCH": scratch.path, "NEARBY_SOURCES": PackagePaths.root.path, "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state", "XDG_DATA_HOME": home + "/.local/share",
            "PATH": [PackagePaths.products.path, PackagePaths.file(".build/venv/bin").path, "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"].joined(separator: ":"),
            "TERM": "dumb", "NO_COLOR": "1",
        ]
        for index in 1...4 { environment["PORT\(index)"] = String(try freeTCPPort()) }
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [scriptURL.path], environment: environment, timeout: .seconds(900))
        let failed = run.stderr.split(separator: "\n").last { $0.hasPrefix("@@ FAILED") }
        #expect(run.status == 0 && run.stderr.contains("@@ done"), "\(failed.map(String.init) ?? "\(file): exit \(run.status)")\n--- stdout:\n\(run.stdout.suffix(4000))\n--- stderr:\n\(run.stderr.suffix(4000))")
        print("\(file): \(document.steps.count) commands run (\(document.steps.filter(\.hidden).count) hidden), \(document.shownOnly) blocks shown only")
    }

    /// The convention, on a small document.
    @Test func theMarkingConventionIsReadAsDocumented() {
        let text = """
            # Guide
            <!-- test: mosquitto -p $PORT1 & -->
            <!-- test-sub: --hci hci:0 => --hci tcp:127.0.0.1:$PORT2 -->
            ```sh
            nearby doctor   # checks
            # a comment
            nearby scan --hci hci:0 \\
              --duration 3
            ```
            ```console
            $ nearby --version
            0.1.0 (commit 0123456789ab)
            ```
            ```sh norun: needs a phone
            sudo nearby accessory
            ```
            ```toml
            hci = "hci:0"
            ```
            <!-- test: exit 64 -->
            ```console
            $ nearby range --bogus
            Error: Unknown option '--bogus'
            ```
            1. In a list item:

               ```console
               $ nearby config path \\
               >   --json
               /home/me/.config/nearby/config.toml
               ```
            """
        let document = Self.parse(text, file: "g.md")
        #expect(document.steps == [
            Step(file: "g.md", line: 2, command: "mosquitto -p $PORT1 &", hidden: true),
            Step(file: "g.md", line: 5, command: "nearby doctor   # checks"),
            Step(file: "g.md", line: 7, command: "nearby scan --hci tcp:127.0.0.1:$PORT2 \\\n  --duration 3"),
            Step(file: "g.md", line: 11, command: "nearby --version"),
            Step(file: "g.md", line: 22, command: "nearby range --bogus", expectedExit: 64),
            Step(file: "g.md", line: 28, command: "nearby config path \\\n  --json"),
        ])
        #expect(document.shownOnly == 1 && document.off == nil)
        #expect(Self.parse("<!-- docs-test: off (the lead rewrites it) -->\n```sh\nnearby demo\n```", file: "r.md").off == "(the lead rewrites it)")
    }
}
