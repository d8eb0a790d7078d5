import Foundation
import NearbyTestSupport
import Testing

/// `nearby replay` end to end: the built executable on a bundled trace, with real hook processes.
@Suite struct ReplayCommandTests {
    static let walk = PackagePaths.file("data/synthetic/walk_4m_1m.csv").path
    /// walk_4m_1m.csv crosses every zone both ways: the zones entered, in order.
    static let entered = ["far", "mid", "near", "mid", "far", "mid", "near", "mid", "far"]

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-replay-\(UUID().uuidString)")

    func scratch(_ name: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func nearby(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
        // No user config file leaks into the tests.
        var environment = environment
        if environment["XDG_CONFIG_HOME"] == nil { environment["XDG_CONFIG_HOME"] = try scratch("xdg") }
        return try await ChildProcess.run(PackagePaths.nearby, arguments, environment: environment, timeout: .seconds(120))
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
    }

    @Test func hooksRunForEveryEventInOrderAtSpeedZero() async throws {
        let log = try scratch("zones.log")
        let run = try await nearby([
            "replay", Self.walk, "--speed", "0", "--on-enter", "near", "--",
            "/bin/sh", "-c", "echo \"$NEARBY_ZONE\" >> \"$1\"", "sh", log,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(read(log) == "near\nnear\n")
        #expect(run.stdout.contains("EVENT enter near (from mid) at 1.13 m"))
        #expect(run.stdout.hasSuffix("replayed 449 samples over 64.7 s: 18 events, 2 hook runs\n"))

        let any = try scratch("any.log")
        let all = try await nearby([
            "replay", Self.walk, "--speed", "0", "--on-enter", "*", "--",
            "/bin/sh", "-c", "echo \"$NEARBY_ZONE<$NEARBY_PREVIOUS_ZONE\" >> \"$1\"", "sh", any,
        ])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(read(any).split(separator: "\n").map { String($0.split(separator: "<", omittingEmptySubsequences: false)[0]) } == Self.entered)
        #expect(read(any).hasPrefix("far<\nmid<far\nnear<mid\n"))
    }

    @Test func jsonLinesCarryEveryKey() async throws {
        let run = try await nearby(["replay", Self.walk, "--speed", "0", "--json", "--on-exit", "mid", "--", "/bin/echo", "bye"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try jsonLines(run.stdout)
        // The same objects as nearby range --json (RunJSON): `event` names the kind.
        let byEvent = Dictionary(grouping: lines) { $0["event"] as? String ?? "?" }
        #expect(Set(byEvent.keys) == ["update", "ranging", "hook", "summary"])
        #expect(byEvent["update"]?.count == 449)
        #expect(Set(byEvent["update"]![0].keys) == [
            "t_s", "event", "accessory", "name", "distance_m", "velocity_mps", "azimuth_deg", "elevation_deg", "confidence", "zone",
            "held", "tracking", "raw_distance_m", "status",
        ])
        let zoneChanges = byEvent["ranging"]!.filter { $0["type"] as? String == "zone" }
        #expect(Set(zoneChanges[0].keys) == ["t_s", "event", "accessory", "name", "type", "from", "to", "zone"])
        #expect(zoneChanges.map { $0["to"] as? String } == Self.entered, "one object per zone change")
        #expect(zoneChanges.dropFirst().map { $0["from"] as? String } == Array(Self.entered.dropLast()))
        #expect(byEvent["ranging"]!.filter { $0["type"] as? String == "found" }.count == 1)
        let hooks = byEvent["hook"]!
        #expect(hooks.count == 4)
        #expect(Set(hooks[0].keys) == [
            "t_s", "event", "accessory", "name", "hook", "trigger", "zone", "previous_zone", "exit_code", "signal", "error", "timed_out",
            "duration_s", "coalesced_events", "stdout", "stderr",
        ])
        #expect(hooks.allSatisfy { $0["exit_code"] as? Int == 0 && $0["stdout"] as? String == "bye\n" && $0["zone"] as? String == "mid" })
        let summaries = try #require(byEvent["summary"])
        #expect(summaries.first?["updates"] as? Int == 449)
        #expect(summaries.first?["zone_changes"] as? Int == 9)
        let total = try #require(summaries.last)
        #expect(total["hook_runs"] as? Int == 4)
        #expect(total["hook_failures"] as? Int == 0)
        #expect(lines.last?["event"] as? String == "summary")
    }

    @Test func accessoryNamesCannotInject() async throws {
        let marker = try scratch("INJECTED")
        let name = "$(touch \(marker)); `touch \(marker)`\ntouch \(marker)"
        let run = try await nearby([
            "replay", Self.walk, "--speed", "0", "--json", "--accessory", name, "--accessory-id", "; touch \(marker)",
            "--on-found", "--", "/usr/bin/env",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let hook = try #require(try jsonLines(run.stdout).first { $0["event"] as? String == "hook" })
        let environment = (hook["stdout"] as? String ?? "").split(separator: "\n").map(String.init)
        #expect(environment.contains("NEARBY_ACCESSORY=$(touch \(marker)); `touch \(marker)`"))
        #expect(environment.contains("touch \(marker)"), "the newline arrives verbatim, as part of the value")
        #expect(environment.contains("NEARBY_ACCESSORY_ID=; touch \(marker)"))
        #expect(environment.contains("NEARBY_EVENT=found"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func theConfigFileSuppliesHooksAndZonesAndFlagsWin() async throws {
        let log = try scratch("config-hook.log")
        let config = try scratch("config.toml")
        try """
            [zones]
            boundaries = [2.0]
            names = ["inside", "outside"]

            [[hook]]
            on = "enter"
            zone = "inside"
            run = ["/bin/sh", "-c", "echo \\"file $NEARBY_ZONE\\" >> \\"$1\\"", "sh", "\(log)"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let fromFile = try await nearby(["replay", Self.walk, "--speed", "0", "--config", config])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(read(log) == "file inside\nfile inside\n")
        #expect(fromFile.stdout.contains("EVENT enter inside (from outside)"))

        // --zones replaces the file's boundaries (its names no longer fit), the CLI hook the file's hook.
        try FileManager.default.removeItem(atPath: log)
        let overridden = try await nearby([
            "replay", Self.walk, "--speed", "0", "--config", config, "--zones", "1.5,3", "--on-enter", "far", "--",
            "/bin/sh", "-c", "echo \"flag $NEARBY_ZONE\" >> \"$1\"", "sh", log,
        ])
        #expect(overridden.status == 0, "\(overridden.stderr)")
        #expect(read(log) == "flag far\nflag far\nflag far\n")
    }

    @Test func aFailingHookMakesTheReplayExit1() async throws {
        let run = try await nearby(["replay", Self.walk, "--speed", "0", "--on-found", "--", "/bin/sh", "-c", "echo broken >&2; exit 7"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("HOOK hook 'found' for found (accessory \"replay\", 4.020 m): exit 7 in "))
        #expect(run.stdout.contains("stderr: broken"))
        #expect(run.stdout.contains("1 hook runs, 1 failed"))
    }

    @Test func realTimePacingFollowsTheTraceClock() async throws {
        // The first 2.1 s of the walk at 10x take about 0.21 s.
        let trace = try scratch("short.csv")
        let lines = read(Self.walk).split(separator: "\n").prefix(16)
        try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let run = try await nearby(["replay", trace, "--speed", "10"])
        let elapsed = clock.now - start
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("replayed 15 samples over 2.0 s"))
        #expect(elapsed >= .milliseconds(200))
    }

    @Test func usageErrorsExit64() async throws {
        let noCommand = try await nearby(["replay", Self.walk, "--on-enter", "near"])
        #expect(noCommand.status == 64)
        #expect(noCommand.stderr.contains("the hook has no command: put it after --"))
        let noTrigger = try await nearby(["replay", Self.walk, "--", "/bin/true"])
        #expect(noTrigger.status == 64)
        #expect(noTrigger.stderr.contains("a command after -- needs a trigger"))
        let badSpeed = try await nearby(["replay", Self.walk, "--speed=-1"])
        #expect(badSpeed.status == 64)
        #expect(badSpeed.stderr.contains("--speed must be ≥ 0"))
        let badZone = try await nearby(["replay", Self.walk, "--on-enter", "nera", "--", "/bin/true"])
        #expect(badZone.status == 64)
        #expect(badZone.stderr.contains("'nera' is not a zone; the zones are near, mid, far"))
        let badFilter = try await nearby(["replay", Self.walk, "--filter", "kalmann"])
        #expect(badFilter.status == 64)
        #expect(badFilter.stderr.contains("unknown filter 'kalmann'"))
    }

    @Test func badTraceAndBadConfigExitWithTheirCodes() async throws {
        let trace = try scratch("bad.csv")
        try "t_s,distance_m\n0,1\n0.1,x\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let badTrace = try await nearby(["replay", trace, "--speed", "0"])
        #expect(badTrace.status == 1)
        #expect(badTrace.stderr.contains("\(trace):3: column distance_m"))
        let missing = try await nearby(["replay", try scratch("none.csv")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("none.csv"))
        let config = try scratch("bad.toml")
        try "[zones]\nhysterisis = 0.2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let badConfig = try await nearby(["replay", Self.walk, "--config", config])
        #expect(badConfig.status == 78)
        #expect(badConfig.stderr.contains("\(config):2: zones.hysterisis: unknown key 'hysterisis' (did you mean 'hysteresis'?)"))
    }
}
