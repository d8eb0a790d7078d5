import Foundation
import NearbyTestSupport
import Testing

/// `nearby range` argument handling (the BLE flow runs in the Bumble end-to-end test).
@Suite struct RangeCommandTests {
    func range(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, ["range"] + arguments, timeout: .seconds(60))
    }

    /// An empty store of this test's own (never the developer's).
    static func emptyStore() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("nearby-range-store-\(UUID().uuidString)/accessories.json").path
    }

    @Test func accessoriesAreStoredAccessoriesOrBLEAddresses() async throws {
        let store = Self.emptyStore()
        let bad = try await range(["keys", "--uwb", "sim", "--store", store])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains("\"keys\" is no accessory of the store (\(store)) and no BLE address: see `nearby accessories list`"),
            "\(bad.stderr)")
        let type = try await range(["F0:F1:F2:F3:F4:F5/sideways", "--uwb", "sim", "--store", store])
        #expect(type.status == 64 && type.stderr.contains("must be random or public"), "\(type.stderr)")
        let none = try await range(["--uwb", "sim"])
        #expect(none.status == 64 && none.stderr.contains("name at least one accessory"))
        let both = try await range(["F0:F1:F2:F3:F4:F5", "--all", "--uwb", "sim"])
        #expect(both.status == 64 && both.stderr.contains("not both"))
        let hci = try await range(["F0:F1:F2:F3:F4:F5", "--hci", "bogus", "--uwb", "sim"])
        #expect(hci.status == 64 && hci.stderr.contains("--hci"), "\(hci.stderr)")
    }

    @Test func anUnreachableControllerIsAnErrorWithExitCode1() async throws {
        let port = try freeTCPPort()
        let run = try await range(["F0:F1:F2:F3:F4:F5", "--hci", "tcp:127.0.0.1:\(port)", "--uwb", "sim"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("--hci tcp:127.0.0.1:\(port)"), "\(run.stderr)")
    }
}

/// `nearby range` end to end: the built executable on `nearby sim uwbs` (its dev kit, over TCP)
/// and the Bumble NI accessory (BLE over HCI/TCP, its own UWBS on the same server).
@Suite(.serialized) struct RangeEndToEndTests {
    /// `nearby sim uwbs` (ideal noise) and the Bumble NI accessory whose UWB side ranges on it
    /// (`peerArguments`: more `ble_peer.py` arguments).
    static func startPeers(peerArguments: [String] = []) async throws -> (server: ChildProcess, peer: ChildProcess, uwbsPort: Int, hciPort: Int) {
        let server = try ChildProcess(PackagePaths.nearby, ["sim", "uwbs", "--listen", "127.0.0.1:0", "--noise", "ideal"])
        try await server.waitForOutput("listening on 127.0.0.1:")
        guard let match = server.stdout.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let uwbsPort = Int(server.stdout[match].split(separator: ":").last ?? "")
        else {
            server.terminate()
            throw ChildProcessError("no port in: \(server.stdout)")
        }
        do {
            let (peer, hciPort) = try await NIAccessoryPeer.start(uwbs: "127.0.0.1:\(uwbsPort)", arguments: peerArguments)
            return (server, peer, uwbsPort, hciPort)
        } catch {
            server.terminate()
            throw error
        }
    }

    @Test func rangesWithTheBumbleAccessoryPrintsJSONAndRecordsATrace() async throws {
        let (server, peer, uwbsPort, hciPort) = try await Self.startPeers()
        defer {
            peer.terminate()
            server.terminate()
        }

        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-range-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let range = try ChildProcess(PackagePaths.nearby, [
            "range", NIAccessoryPeer.address, "--hci", "tcp:127.0.0.1:\(hciPort)", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json",
            "--record", trace, "--store", RangeCommandTests.emptyStore(), "--web", "0",
        ])
        defer { range.terminate() }
        try await range.waitForOutput("\"event\":\"ranging\",\"accessory\":\"\(NIAccessoryPeer.address)\",\"name\":\"\(NIAccessoryPeer.address)\",\"type\":\"zone\",\"from\":null,\"to\":\"mid\"", timeout: .seconds(60))
        for _ in 0..<200 where range.stdout.components(separatedBy: "\"event\":\"update\"").count < 6 {
            try await Task.sleep(for: .milliseconds(50))
        }
        // The web view (--web) shows the same accessory (notes, and its address, on stderr with --json).
        let web = try #require(range.stderr.range(of: #"web view: http://127\.0\.0\.1:\d+"#, options: .regularExpression))
        let webPort = try #require(Int(range.stderr[web].split(separator: ":").last ?? ""))
        let state = try #require(
            try JSONSerialization.jsonObject(with: Data(try await RawHTTPClient.request("/api/state", port: webPort).body.utf8)) as? [String: Any])
        let status = try #require((state["accessories"] as? [[String: Any]])?.first)
        #expect(state["source"] as? String == "range" && status["accessory"] as? String == NIAccessoryPeer.address)
        #expect(status["zone"] as? String == "mid" && status["session_state"] as? String == "ranging" && abs((status["distance_m"] as? Double ?? 0) - 2) < 0.01, "\(status)")
        range.signal(SIGINT)
        let exit = try await range.waitForExit(timeout: .seconds(30))
        #expect(exit == 0, "stopped by SIGINT after ranging: \(range.stderr)")
        let objects = try range.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let updates = objects.filter { $0["event"] as? String == "update" }
        #expect(updates.count >= 5)
        #expect(updates.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.01 }, "\(updates.suffix(3))")
        let states = objects.filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
        #expect(states == ["initializing", "configuring", "starting", "ranging", "stopped"], "\(states)")
        #expect(range.stderr.contains("stopped; summary:"))
        try await peer.waitForOutput("NI-STOP")

        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m,accessory")
        #expect(lines.count >= 6)
        #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(",\(NIAccessoryPeer.address)") && $0.contains(",2.0,") }, "\(lines.prefix(3))")
    }

    @Test func allFindsTheAdvertisingAccessoryByScanning() async throws {
        let (server, peer, uwbsPort, hciPort) = try await Self.startPeers()
        defer {
            peer.terminate()
            server.terminate()
        }
        let range = try ChildProcess(PackagePaths.nearby, [
            "range", "--all", "--store", RangeCommandTests.emptyStore(), "--scan-seconds", "1", "--hci", "tcp:127.0.0.1:\(hciPort)", "--uwb", "tcp:127.0.0.1:\(uwbsPort)",
        ])
        defer { range.terminate() }
        // Plain output (not a terminal): the advertised name names the accessory.
        try await range.waitForOutput("nb-peer: entered mid", timeout: .seconds(60))
        range.signal(SIGINT)
        #expect(try await range.waitForExit(timeout: .seconds(30)) == 0, "\(range.stderr)")
        #expect(range.stdout.contains("nb-peer: session 0x"), "\(range.stdout)")
        #expect(range.stdout.contains("  nb-peer: ") && range.stdout.contains("0 retries"), "the summary: \(range.stdout)")
    }

    @Test func aSetUpAccessoryIsRangedByNameWithHooksAndItsLastSeenTimeIsKept() async throws {
        let (server, peer, uwbsPort, hciPort) = try await Self.startPeers()
        defer {
            peer.terminate()
            server.terminate()
        }

        // The accessory as the store knows it (migrated by address; `nearby setup` stores the same record).
        let store = RangeCommandTests.emptyStore()
        let migrate = try await ChildProcess.run(
            PackagePaths.nearby, ["accessories", "migrate", "--address", NIAccessoryPeer.address, "--name", "Kitchen tag", "--store", store])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let before = try await ChildProcess.run(PackagePaths.nearby, ["accessories", "list", "--json", "--store", store])
        let record = try #require((try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [[String: Any]])?.first)
        let id = try #require(record["id"] as? String)
        #expect(record["last_seen_at"] == nil || record["last_seen_at"] is NSNull, "\(record)")

        let log = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-range-hook-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let range = try ChildProcess(PackagePaths.nearby, [
            "range", "kitchen TAG", "--store", store, "--hci", "tcp:127.0.0.1:\(hciPort)", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json",
            "--on-enter", "mid", "--", "/bin/sh", "-c", "echo \"$NEARBY_ACCESSORY|$NEARBY_ACCESSORY_ID|$NEARBY_ZONE\" >> \"$0\"", log,
        ])
        defer { range.terminate() }
        try await range.waitForOutput("\"event\":\"hook\"", timeout: .seconds(60))
        range.signal(SIGINT)
        #expect(try await range.waitForExit(timeout: .seconds(30)) == 0, "\(range.stderr)")
        #expect(range.stdout.contains("\"accessory\":\"\(id)\",\"name\":\"Kitchen tag\""), "events name the stored accessory")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "Kitchen tag|\(id)|mid\n")
        let after = try await ChildProcess.run(PackagePaths.nearby, ["accessories", "list", "--json", "--store", store])
        let updated = try #require((try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(updated["last_seen_at"] is String, "last seen is set once it ranged: \(updated)")
    }
}
