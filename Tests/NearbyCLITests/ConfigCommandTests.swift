import Foundation
import NearbyTestSupport
import Testing

/// `nearby config check / example / path` end to end.
@Suite struct ConfigCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-config-cli-\(UUID().uuidString)")

    func file(_ name: String, _ content: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let path = url.path
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func nearby(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, arguments, environment: environment)
    }

    @Test func theExamplePassesCheckThroughAPipe() async throws {
        let example = try await nearby(["config", "example"])
        #expect(example.status == 0)
        #expect(example.stdout.contains("[[hook]]"))
        let run = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "\"$0\" config example | \"$0\" config check -", PackagePaths.nearby.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("<stdin>: OK\nzones: near < 1.5 m, mid < 3 m, far; hysteresis 0.2 m, dwell 0.3 s, lost after 2 s\n"))
        #expect(run.stdout.contains("filter: imm (parameters set for imm, kalman, one_euro, hampel)"))
        #expect(run.stdout.contains("hooks: 2\n"))
        #expect(run.stdout.contains("transports: hci hci:0, uwb usb:1915:520f"))
        #expect(run.stdout.contains("retry: max_attempts 5, initial_backoff 0.5 s, max_backoff 30 s"))
        #expect(run.stdout.contains("output: json false, color auto, log level warning"))
    }

    @Test func aBadFileListsEveryProblemWithLineAndKey() async throws {
        let path = try file("bad.toml", """
            [zones]
            boundaries = [1.5, 3.0]
            dwel = 0.3

            [[hook]]
            on = "enter"
            zone = "nearby"
            run = ["/bin/true"]

            [transports]
            hci = "hci:x"
            uwb = "usb:zz:1"
            """)
        let run = try await nearby(["config", "check", path])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        // One line per problem (a remedy may follow on indented lines), then the count.
        let lines = run.stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(" ") }
        #expect(lines.count == 5, "\(run.stderr)")
        #expect(lines[0] == "\(path):3: zones.dwel: unknown key 'dwel' (did you mean 'dwell'?); [zones] accepts boundaries, names, hysteresis, dwell, lost_after")
        #expect(lines[1] == "\(path):7: hook[1].zone: 'nearby' is not a zone; the zones are near, mid, far (or \"*\" for any)")
        #expect(lines[2].hasPrefix("\(path):11: transports.hci: "))
        #expect(lines[2].contains("not an adapter index"), "the CLI checks hci with the real parser")
        #expect(lines[3].hasPrefix("\(path):12: transports.uwb: "))
        #expect(lines[4] == "4 problems in \(path)")
    }

    @Test func syntaxErrorsAndMissingFiles() async throws {
        let path = try file("syntax.toml", "[zones\nx = 1\n")
        let run = try await nearby(["config", "check", path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("\(path):1:"))
        #expect(run.stderr.contains("TOML syntax error"))
        let missing = directory.appendingPathComponent("missing.toml").path
        let none = try await nearby(["config", "check", missing])
        #expect(none.status == 1)
        #expect(none.stderr.contains("\(missing):1: no such file; create it (`nearby config example > \(missing)`) or fix the path"))
    }

    @Test func theDefaultFileFollowsXDGConfigHome() async throws {
        let xdg = directory.appendingPathComponent("xdg").path
        let path = try await nearby(["config", "path"], environment: ["XDG_CONFIG_HOME": xdg])
        #expect(path.stdout == "\(xdg)/nearby/config.toml\n")
        let absent = try await nearby(["config", "check"], environment: ["XDG_CONFIG_HOME": xdg])
        #expect(absent.status == 0)
        #expect(absent.stdout.hasPrefix("no configuration file at \(xdg)/nearby/config.toml; every setting has its default\n"))
        _ = try file("xdg/nearby/config.toml", "[output]\njson = true\n")
        let present = try await nearby(["config", "check"], environment: ["XDG_CONFIG_HOME": xdg])
        #expect(present.status == 0, "\(present.stderr)")
        #expect(present.stdout.hasPrefix("\(xdg)/nearby/config.toml: OK\n"))
        #expect(present.stdout.contains("output: json true,"))
    }
}
