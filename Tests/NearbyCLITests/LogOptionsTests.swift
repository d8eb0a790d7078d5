import Foundation
import NearbyTestSupport
import Testing

/// `--log-level` and colours: logs on stderr, plain when stderr is not a terminal or NO_COLOR is
/// set, coloured only when asked for; the level from the flag, else the config file.
@Suite struct LogOptionsTests {
    static let walk = PackagePaths.file("data/synthetic/walk_4m_1m.csv").path
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-log-\(UUID().uuidString)")

    func replay(_ extra: [String], environment: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = environment
        environment["XDG_CONFIG_HOME"] = directory.path
        return try await ChildProcess.run(
            PackagePaths.nearby, ["replay", Self.walk, "--speed", "0", "--on-found"] + extra + ["--", "/bin/true"],
            environment: environment)
    }

    @Test func defaultLevelWarningPrintsNothingForASuccessfulHook() async throws {
        let run = try await replay([])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
    }

    @Test func infoLogsEachRunPlainOnAPipe() async throws {
        let run = try await replay(["--log-level", "info"])
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let line = try #require(lines.first { $0.contains("nearby.hooks") })
        // HH:MM:SS.mmm info nearby.hooks: message key=value ...
        #expect(line.range(of: #"^\d\d:\d\d:\d\d\.\d{3} info nearby\.hooks: hook 'found' for found "#, options: .regularExpression) != nil, "\(line)")
        #expect(line.contains("status=\"exit 0\""))
        #expect(!run.stderr.contains("\u{1B}["), "no colour codes when stderr is a pipe")
    }

    @Test func colourOnlyWhenAskedAndNeverWithNoColor() async throws {
        let config = directory.appendingPathComponent("always.toml").path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "[output]\ncolor = \"always\"\nlog_level = \"info\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let colored = try await replay(["--config", config])
        #expect(colored.stderr.contains("\u{1B}[36minfo\u{1B}[0m nearby.hooks: "), "the config file's level and colour apply")
        let quiet = try await replay(["--config", config, "--log-level", "error"])
        #expect(quiet.stderr.isEmpty, "the flag wins over the file")
        let never = try await replay(["--log-level", "info"], environment: ["NO_COLOR": "1"])
        #expect(never.stderr.contains(" info nearby.hooks: "))
        #expect(!never.stderr.contains("\u{1B}["))
    }

    @Test func badLevelIsAUsageError() async throws {
        let run = try await replay(["--log-level", "loud"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--log-level"))
    }

    @Test func deviceCommandsTakeTheLogLevelAndVerboseMeansDebug() async throws {
        let uwb = ["uwb", "range", "--device", "sim", "--count", "1"]
        let quiet = try await ChildProcess.run(PackagePaths.nearby, uwb)
        #expect(quiet.status == 0 && !quiet.stderr.contains("nearby.uwb"), "default warning: \(quiet.stderr)")
        let debug = try await ChildProcess.run(PackagePaths.nearby, uwb + ["--log-level", "debug"])
        #expect(debug.stderr.contains("debug nearby.uwb: > CORE_DEVICE_RESET_CMD"), "\(debug.stderr)")
        let verbose = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "info", "--device", "sim", "--verbose"])
        #expect(verbose.stderr.contains("debug nearby.uwb: > CORE_GET_DEVICE_INFO_CMD"), "\(verbose.stderr)")
        let flagWins = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "info", "--device", "sim", "--verbose", "--log-level", "error"])
        #expect(flagWins.status == 0 && !flagWins.stderr.contains("nearby.uwb"), "\(flagWins.stderr)")
        for command in [["scan"], ["setup"]] {
            let help = try await ChildProcess.run(PackagePaths.nearby, command + ["--help"])
            #expect(help.stdout.contains("--log-level <level>"), "\(command)")
        }
    }
}
