import Foundation
import NearbyTestSupport
import Testing

/// `nearby demo` end to end: the built executable runs the whole NI flow on the simulator.
@Suite struct DemoCommandTests {
    func demo(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, ["demo"] + arguments, timeout: .seconds(120))
    }

    func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// `nearby demo --json | head -n 3`: the reader goes away; nearby stops as on SIGTERM (the
    /// summary on standard error, exit 0), instead of trapping in a write (EPIPE).
    @Test func aReaderThatGoesAwayStopsTheRunCleanly() async throws {
        let script = "\"$0\" demo --json --speed 5 --scenario walk-in | head -n 3; echo \"nearby-status=${PIPESTATUS[0]}\" >&2"
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script, PackagePaths.nearby.path], timeout: .seconds(120))
        #expect(run.stdout.split(separator: "\n").count == 3, "\(run.stdout)")
        #expect(run.stderr.contains("nearby-status=0") && run.stderr.contains("interrupted; summary:"), "\(run.stderr)")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Crash"), "\(run.stderr)")
    }

    @Test func jsonHasUpdatesAndZoneEventsForEveryAccessory() async throws {
        // `lost` would come after 2 simulated seconds of silence, 0.4 s of real time at ×5, and a
        // loaded 2-core CI machine can stall a process that long (seen: 1 lost, then a retry):
        // 10 simulated seconds (2 s real) here, since this test is about the events of a clean walk.
        let run = try await demo(["--json", "--accessories", "2", "--speed", "5", "--scenario", "walk-in", "--lost-after", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try objects(run.stdout)
        for id in ["sim-1", "sim-2"] {
            let mine = objects.filter { $0["accessory"] as? String == id }
            let updates = mine.filter { $0["event"] as? String == "update" }
            #expect(updates.count > 30, "\(id): \(updates.count) updates")
            for key in ["t_s", "distance_m", "velocity_mps", "azimuth_deg", "elevation_deg", "confidence", "zone", "held", "tracking", "raw_distance_m", "status"] {
                #expect(updates.last?[key] != nil, "\(id): update without \(key)")
            }
            // walk-in: from 8 m to 0.5 m, so far → mid → near.
            let entered = mine.filter { $0["event"] as? String == "ranging" && $0["type"] as? String == "zone" }.compactMap { $0["to"] as? String }
            let lost = mine.filter { $0["event"] as? String == "ranging" && $0["type"] as? String == "lost" }.count
            #expect(entered == ["far", "mid", "near"] && lost == 0, "\(id): \(entered), \(lost) lost")
            // It ends at 0.5 m, in `near`; the smoothed distance may still lag by a little when
            // the scenario stops (more on a machine that stalled the process).
            let last = try #require(updates.last?["distance_m"] as? Double)
            #expect(last < 1.5 && updates.last?["zone"] as? String == "near", "\(id) ends near 0.5 m: \(last)")
            let configured = try #require(mine.first { $0["event"] as? String == "configured" })
            #expect(configured["channel"] as? Int == 9 && (configured["own_work_ms"] as? Double ?? 0) > 0)
            let states = mine.filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
            #expect(states == ["initializing", "configuring", "starting", "ranging", "stopped"], "\(id): \(states)")
        }
        #expect(run.stderr.contains("summary:"))
        #expect(run.stderr.contains("sim-2: "))
    }

    /// `--sts-order`: both orders range on the simulator (host and virtual accessories agree);
    /// the old spelling `reversed` still parses and means `vendor-swapped`; nonsense is refused.
    @Test(arguments: ["vendor-first", "vendor-swapped", "reversed"])
    func stsOrderSpellingsRange(order: String) async throws {
        let run = try await demo(["--scenario", "stand", "--duration", "2", "--speed", "10", "--sts-order", order])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("sim-1: ranging"), "\(run.stdout)")
    }

    @Test func anUnknownSTSOrderIsRefusedNamingBoth() async throws {
        let run = try await demo(["--sts-order", "backwards"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--sts-order must be vendor-first or vendor-swapped, not \"backwards\""), "\(run.stderr)")
    }

    @Test func plainOutputEndsWithASummary() async throws {
        let run = try await demo(["--scenario", "stand", "--duration", "3", "--speed", "5", "--zones", "1,2.5", "--filter", "raw"])  // ×5 at most: see the JSON test
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("demo: scenario stand"))
        #expect(run.stdout.contains("sim-1: entered mid"), "2 m is between 1 and 2.5 m:\n\(run.stdout)")
        #expect(run.stdout.contains("sim-1: ranging"))
        let summary = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  sim-1: ") })
        #expect(summary.contains("0 retries") && summary.contains("stopped") && summary.contains("own work (budget 5 ms)"), "\(summary)")
    }

    @Test func zoneHooksRunWithTheEventInTheirEnvironmentAndShowInJSON() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-demo-hook-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try await demo([
            "--json", "--scenario", "walk-in", "--speed", "5", "--on-enter", "*", "--",
            "/bin/sh", "-c", "echo \"$NEARBY_EVENT|$NEARBY_ZONE|$NEARBY_PREVIOUS_ZONE|$NEARBY_ACCESSORY|$NEARBY_DISTANCE_M\" >> \"$0\"", log,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // walk-in from 8 m to 0.5 m: far, then mid (from far), then near (from mid), each with the
        // smoothed distance of the sample that made the change.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.map { Array($0.prefix(4)) } == [["enter", "far", "", "sim-1"], ["enter", "mid", "far", "sim-1"], ["enter", "near", "mid", "sim-1"]], "\(lines)")
        let distances = lines.compactMap { $0.last.flatMap(Double.init) }
        #expect(distances.count == 3 && distances[0] > 3 && distances[1] < 3 && distances[1] > 1.5 && distances[2] < 1.5, "\(distances)")
        let hooks = try objects(run.stdout).filter { $0["event"] as? String == "hook" }
        #expect(hooks.compactMap { $0["zone"] as? String } == ["far", "mid", "near"], "\(hooks)")
        #expect(hooks.allSatisfy { $0["exit_code"] as? Int == 0 && $0["accessory"] as? String == "sim-1" && $0["trigger"] as? String == "enter" })
    }

    @Test func badArgumentsAreExplained() async throws {
        let scenario = try await demo(["--scenario", "moonwalk"])
        #expect(scenario.status == 64)
        #expect(scenario.stderr.contains("moonwalk") && scenario.stderr.contains("walk-in"), "\(scenario.stderr)")
        let count = try await demo(["--accessories", "9"])
        #expect(count.status == 64 && count.stderr.contains("--accessories must be 1-8"))
        let zones = try await demo(["--zones", "3,1"])
        #expect(zones.status == 64 && zones.stderr.contains("--zones"))
        let hook = try await demo(["--on-enter", "near"])
        #expect(hook.status == 64 && hook.stderr.contains("the hook has no command: put it after --"), "\(hook.stderr)")
        let zone = try await demo(["--on-enter", "kitchen", "--", "/bin/true"])
        #expect(zone.status == 64 && zone.stderr.contains("kitchen"), "\(zone.stderr)")
    }

    /// Each `radio: phone-N: R rounds, F failed (P %), B to the busy radio` line: (N, R, F, B).
    func radioShares(_ stderr: String) -> [(phone: Int, rounds: Int, failed: Int, busy: Int)] {
        stderr.split(separator: "\n").compactMap { line -> (Int, Int, Int, Int)? in
            guard let match = line.firstMatch(of: /radio: phone-(\d+): (\d+) rounds, (\d+) failed \([0-9.]+ %\), (\d+) to the busy radio/) else {
                return nil
            }
            return (Int(match.1)!, Int(match.2)!, Int(match.3)!, Int(match.4)!)
        }
    }

    @Test("demo --role accessory --phones N reports each phone's failed-round share on the kit's one radio: none lost to the radio with one phone, some with two hopping phones")
    func accessoryRoleRadioShares() async throws {
        let one = try await demo(["--role", "accessory", "--phones", "1", "--duration", "20", "--speed", "4"])
        #expect(one.status == 0, "\(one.stderr)")
        let single = radioShares(one.stderr)
        #expect(single.count == 1 && single[0].rounds > 50 && single[0].busy == 0, "\(one.stderr)")
        let two = try await demo(["--role", "accessory", "--phones", "2", "--duration", "20", "--speed", "4", "--hopping"])
        #expect(two.status == 0, "\(two.stderr)")
        let shares = radioShares(two.stderr)
        #expect(shares.map(\.phone) == [1, 2], "\(two.stderr)")
        // Hopping places each round anew: the two phones' rounds meet now and then, on both.
        #expect(shares.allSatisfy { $0.rounds > 50 && $0.busy > 0 && $0.failed >= $0.busy && $0.busy < $0.rounds / 2 }, "\(two.stderr)")
    }
}
