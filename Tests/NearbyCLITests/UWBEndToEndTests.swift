import Foundation
import NearbyTestSupport
import Testing

/// End to end: `nearby uwb info` / `nearby uwb range` against the virtual UWBS (`nearby sim uwbs`
/// with a built-in peer) through the umockdev emulator (DWM3001CDK CDC-ACM and SR150 FT230X,
/// real libusb), over TCP, and in process (`--device sim`); recovery after a device error and
/// a dropped connection.
@Suite struct UWBEndToEndTests {
    /// `nearby sim uwbs` on a port the system picks, with the peer of session 42 (0x0002, ranging
    /// with 0x0001) standing 2 m ahead, measured without noise.
    final class SimServer: Sendable {
        let child: ChildProcess
        let port: Int

        init(_ extra: [String] = [], scenario: String = "stand", noise: String = "ideal") async throws {
            child = try ChildProcess(PackagePaths.nearby, [
                "sim", "uwbs", "--listen", "127.0.0.1:0", "--scenario", scenario, "--noise", noise,
                "--peer", "session=42,mac=0x0002,peer=0x0001",
            ] + extra)
            try await child.waitForOutput("listening on 127.0.0.1:")
            guard let range = child.stdout.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(child.stdout[range].split(separator: ":").last ?? "")
            else { throw ChildProcessError("no port in: \(child.stdout)") }
            self.port = port
        }

        deinit { child.terminate() }
    }

    static let range = ["uwb", "range", "--session-id", "42", "--role", "initiator", "--controller", "--mac", "0x0001", "--peer", "0x0002"]

    /// Samples of the peer standing 2 m ahead, 0.2 m higher, measured without noise.
    static func checkStandingPeer(_ stdout: String, count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let objects = try UWBInfoRangeTests.objects(stdout)
        #expect(objects.count == count, "\(stdout)", sourceLocation: sourceLocation)
        for object in objects {
            #expect(Set(object.keys) == UWBInfoRangeTests.sampleKeys, sourceLocation: sourceLocation)
            #expect(object["peer"] as? String == "0x0002", sourceLocation: sourceLocation)
            #expect(object["status"] as? String == "OK", "\(object)", sourceLocation: sourceLocation)
            #expect(object["distance_m"] as? Double == 2.0, "\(object)", sourceLocation: sourceLocation)
            #expect(abs((object["azimuth_deg"] as? Double ?? 99)) < 0.01, "\(object)", sourceLocation: sourceLocation)
            #expect(abs((object["elevation_deg"] as? Double ?? 99) - 5.71) < 0.1, "\(object)", sourceLocation: sourceLocation)
            #expect(object["nlos"] as? Bool == false, sourceLocation: sourceLocation)
        }
        let times = objects.compactMap { $0["t_s"] as? Double }
        #expect(times == times.sorted() && times.allSatisfy { $0 >= 0 && $0 < 60 }, "\(times)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [(UMockdevEmulator.Kit.dwm3001cdk, "usb:1915:520f", "1.1"), (.sr150, "usb:0403:6015", "2.0")])
    func infoThroughTheEmulatedKit(kit: UMockdevEmulator.Kit, device: String, uci: String) async throws {
        let server = try await SimServer(["--uci-version", uci])
        // The SR150 starts like NXP's firmware: board configuration first (NXP's UWB HAL).
        let run = try await UMockdevEmulator.run(
            kit: kit, uciPort: server.port, command: [PackagePaths.nearby.path, "uwb", "info", "--device", device, "--json"],
            needsBoardConfiguration: kit == .sr150)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        if kit == .sr150 {
            let events = UMockdevEmulator.events(in: run.stderr)
            #expect(events.contains("board-config variant=01 version=01"), "\(run.stderr)")
            // After the board configuration the UWBS is reset, as NXP's HAL does.
            let configured = try #require(events.firstIndex(of: "board-config variant=01 version=01"))
            #expect(events[configured...].contains("uci-to-uwbs 20 00 00 01 00"))
        }
        let object = try #require(try UWBInfoRangeTests.objects(run.stdout).first)
        #expect(object["device"] as? String == device)
        #expect(object["uci_version"] as? String == (uci == "1.1" ? "1.1.0" : "2.0.0"))
        #expect(object["mac_version"] as? String == (uci == "1.1" ? "1.1.0" : "1.3.0"))
        #expect(object["vendor_info"] as? String == Array("nearby virtual UWBS".utf8).map { String(format: "%02x", $0) }.joined())
        let capabilities = try #require(object["capabilities"] as? [String: Any])
        #expect(capabilities["supported_channels"] as? [Int] == [5, 9])
        #expect(capabilities["supported_device_roles"] as? [String] == ["RESPONDER", "INITIATOR"])
        #expect(capabilities["supported_rframe_config"] as? [String] == ["SP0", "SP1", "SP3"])
    }

    @Test(arguments: [(UMockdevEmulator.Kit.dwm3001cdk, "usb:1915:520f", "1.1"), (.sr150, "usb:0403:6015", "2.0")])
    func rangeThroughTheEmulatedKit(kit: UMockdevEmulator.Kit, device: String, uci: String) async throws {
        let server = try await SimServer(["--uci-version", uci])
        let run = try await UMockdevEmulator.run(
            kit: kit, uciPort: server.port,
            command: [PackagePaths.nearby.path] + Self.range + ["--device", device, "--count", "5", "--json"],
            needsBoardConfiguration: kit == .sr150)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        try Self.checkStandingPeer(run.stdout, count: 5)
        try await server.child.waitForOutput("session 42 DEINIT")
        #expect(server.child.stdout.contains("session 42 ACTIVE"))
    }

    @Test func rangeOverTCPWithTheDefaultNoiseWhileThePeerWalksIn() async throws {
        let server = try await SimServer(["--uci-version", "1.1"], scenario: "walk-in", noise: "default")
        let run = try await ChildProcess.run(
            PackagePaths.nearby, Self.range + ["--device", "tcp:127.0.0.1:\(server.port)", "--count", "5", "--json"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let objects = try UWBInfoRangeTests.objects(run.stdout)
        #expect(objects.count == 5)
        // The peer stands 8 m away for the first 2 s (the scenario starts with the first round).
        let distances = objects.compactMap { $0["distance_m"] as? Double }.sorted()
        #expect(!distances.isEmpty)
        let median = distances[distances.count / 2]
        #expect(median > 7.5 && median < 8.6, "\(distances)")
    }

    @Test func rangeInProcessWithTheBuiltInSimulator() async throws {
        let run = try await ChildProcess.run(
            PackagePaths.nearby, ["uwb", "range", "--device", "sim", "--session-id", "7", "--count", "5", "--json"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let objects = try UWBInfoRangeTests.objects(run.stdout)
        #expect(objects.count == 5)
        for object in objects { #expect(Set(object.keys) == UWBInfoRangeTests.sampleKeys) }
        // The demo scenario starts with the accessory 6 m away at +30° for 3 s.
        let valid = objects.filter { $0["status"] as? String == "OK" }
        let distances = valid.compactMap { $0["distance_m"] as? Double }.sorted()
        let azimuths = valid.compactMap { $0["azimuth_deg"] as? Double }.sorted()
        #expect(distances.count >= 3, "\(run.stdout)")
        guard distances.count >= 3 else { return }
        #expect(distances[distances.count / 2] > 5.5 && distances[distances.count / 2] < 6.7, "\(distances)")
        #expect(azimuths[azimuths.count / 2] > 15 && azimuths[azimuths.count / 2] < 45, "\(azimuths)")

        let info = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "info", "--device", "sim"])
        #expect(info.status == 0)
        #expect(info.stdout.contains("uci version: 2.0.0"))
        #expect(info.stdout.contains("supported channels: [5, 9]"))
    }

    /// The virtual UWBS fails (SIGUSR1: DEVICE_STATUS_NTF(ERROR)) and later drops the connection
    /// (SIGUSR2, like an unplug) while `nearby uwb range` runs: both are recovered and ranging
    /// goes on.
    @Test func rangingSurvivesADeviceErrorAndADroppedConnection() async throws {
        let server = try await SimServer()
        let child = try ChildProcess(
            PackagePaths.nearby, Self.range + ["--device", "tcp:127.0.0.1:\(server.port)", "--interval-ms", "100", "--json"])
        defer { child.terminate() }
        func samples() throws -> Int { try UWBInfoRangeTests.objects(child.stdout).count }
        func waitForSamples(_ count: Int) async throws {
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(60))
            while try samples() < count {
                if clock.now >= deadline || !child.isRunning {
                    throw ChildProcessError("\(try samples()) of \(count) samples\n\(child.stdout)\n\(child.stderr)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        try await waitForSamples(3)
        server.child.signal(SIGUSR1)
        try await child.waitForOutput("the UWBS reported DEVICE_STATE_ERROR", timeout: .seconds(30))
        try await child.waitForOutput("dev kit back, sessions restored: 0x0000002A", timeout: .seconds(30))
        let afterError = try samples()
        try await waitForSamples(afterError + 3)

        server.child.signal(SIGUSR2)
        try await child.waitForOutput("dev kit lost", timeout: .seconds(30))
        try await child.waitForOutput("session 42: restored, SESSION_STATE_ACTIVE (0x02)", timeout: .seconds(30))
        let afterDrop = try samples()
        try await waitForSamples(afterDrop + 3)

        child.signal(SIGINT)
        #expect(try await child.waitForExit() == 0, "\(child.stdout)\n\(child.stderr)")
        try Self.checkStandingPeer(child.stdout, count: try samples())
        #expect(child.stderr.contains("interrupted (SIGINT); session 42 closed"), "\(child.stderr)")
    }

    @Test func theVirtualRadiosChannelsAreTheLimit() async throws {
        let server = try await SimServer()
        let run = try await ChildProcess.run(
            PackagePaths.nearby, Self.range + ["--device", "tcp:127.0.0.1:\(server.port)", "--channel", "6", "--count", "1"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("CHANNEL_NUMBER (0x04) = channel 6: INVALID_RANGE (0x05)"), "\(run.stderr)")
    }
}
