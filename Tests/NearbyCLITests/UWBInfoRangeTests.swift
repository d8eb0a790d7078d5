import Foundation
import NearbyTestSupport
import Testing

/// `nearby uwb info` and `nearby uwb range` against a UWBS scripted in wire bytes, over TCP and
/// through the umockdev emulator (DWM3001CDK CDC-ACM and SR150 FT230X).
@Suite struct UWBInfoRangeTests {
    static let sampleKeys: Set<String> = ["t_s", "peer", "distance_m", "azimuth_deg", "elevation_deg", "fom", "nlos", "status"]

    /// The JSON objects of a run's stdout, one per line.
    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// Checks the three scripted samples as JSON objects.
    static func checkSamples(_ objects: [[String: Any]], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(objects.count == 3, sourceLocation: sourceLocation)
        guard objects.count == 3 else { return }
        for object in objects { #expect(Set(object.keys) == sampleKeys, sourceLocation: sourceLocation) }
        #expect(objects[0]["peer"] as? String == "0x0002", sourceLocation: sourceLocation)
        #expect(objects[0]["distance_m"] as? Double == 1.5, sourceLocation: sourceLocation)
        #expect(objects[0]["azimuth_deg"] as? Double == -30, sourceLocation: sourceLocation)
        #expect(objects[0]["elevation_deg"] as? Double == 10.5, sourceLocation: sourceLocation)
        #expect(objects[0]["fom"] as? Int == 100, sourceLocation: sourceLocation)
        #expect(objects[0]["nlos"] as? Bool == false, sourceLocation: sourceLocation)
        #expect(objects[0]["status"] as? String == "OK", sourceLocation: sourceLocation)
        #expect(objects[1]["distance_m"] as? Double == 1.52, sourceLocation: sourceLocation)
        #expect(objects[1]["azimuth_deg"] as? Double == -29.5, sourceLocation: sourceLocation)
        #expect(objects[2]["status"] as? String == "RANGING_RX_TIMEOUT", sourceLocation: sourceLocation)
        #expect(objects[2]["distance_m"] is NSNull, sourceLocation: sourceLocation)
        #expect(objects[2]["nlos"] is NSNull, sourceLocation: sourceLocation)
        let times = objects.compactMap { $0["t_s"] as? Double }
        #expect(times.count == 3 && times.allSatisfy { $0 >= 0 && $0 < 60 } && times == times.sorted(), "\(times)",
                sourceLocation: sourceLocation)
    }

    @Test func infoPrintsVersionsAndCapabilitiesReadably() async throws {
        let uwbs = ScriptedUWBS()
        let server = try ScriptedUCIServer(responder: uwbs.responder)
        let run = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "info", "--device", "tcp:127.0.0.1:\(server.port)"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout == """
            device: tcp:127.0.0.1:\(server.port)
            uci version: 1.1.0
            mac version: 1.3.0
            phy version: 1.3.0
            test version: 1.1.0
            vendor info: 51 6f
            capabilities:
              supported channels: [5, 9]
              supported device roles: [RESPONDER (0x00), INITIATOR (0x01)]

            """)
        #expect(server.received == [ScriptedUWBS.reset, ScriptedUWBS.getDeviceInfo, ScriptedUWBS.getCaps])
    }

    @Test func infoAsJSON() async throws {
        let server = try ScriptedUCIServer(responder: ScriptedUWBS().responder)
        let run = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "info", "--device", "tcp:127.0.0.1:\(server.port)", "--json"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let object = try #require(try Self.objects(run.stdout).first)
        #expect(object["uci_version"] as? String == "1.1.0")
        #expect(object["mac_version"] as? String == "1.3.0")
        #expect(object["vendor_info"] as? String == "516f")
        let capabilities = try #require(object["capabilities"] as? [String: Any])
        #expect(capabilities["supported_channels"] as? [Int] == [5, 9])
        #expect(capabilities["supported_device_roles"] as? [String] == ["RESPONDER", "INITIATOR"])
    }

    @Test func infoFromASilentDeviceFailsNamingTheCommand() async throws {
        let server = try ScriptedUCIServer { _ in [] }
        let run = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "info", "--device", "tcp:127.0.0.1:\(server.port)"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: tcp:127.0.0.1:\(server.port): CORE_DEVICE_RESET_CMD timed out: no response within 2 s"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func rangePrintsOneJSONObjectPerSampleAndClosesTheSession() async throws {
        let server = try ScriptedUCIServer(responder: ScriptedUWBS().responder)
        let run = try await ChildProcess.run(PackagePaths.nearby, [
            "uwb", "range", "--device", "tcp:127.0.0.1:\(server.port)", "--session-id", "42", "--channel", "9", "--preamble", "10",
            "--role", "initiator", "--controller", "--mac", "0x0001", "--peer", "0x0002", "--interval-ms", "100", "--count", "3", "--json",
        ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        Self.checkSamples(try Self.objects(run.stdout))
        let received = server.received
        #expect(received.map { Array($0.prefix(2)) } == [
            [0x20, 0x00], [0x20, 0x02], [0x20, 0x03], [0x21, 0x00], [0x21, 0x03], [0x22, 0x00], [0x22, 0x01], [0x21, 0x01],
        ])
        #expect(received[3] == [0x21, 0x00, 0x00, 0x05, 0x2A, 0x00, 0x00, 0x00, 0x00])
        let config = received[4]
        for tlv: [UInt8] in [[0x04, 0x01, 0x09], [0x14, 0x01, 0x0A], [0x11, 0x01, 0x01], [0x00, 0x01, 0x01], [0x06, 0x02, 0x01, 0x00],
                             [0x07, 0x02, 0x02, 0x00], [0x09, 0x04, 0x64, 0x00, 0x00, 0x00]] {
            #expect(config.containsRun(tlv), "SET_APP_CONFIG lacks \(tlv): \(config)")
        }
        #expect(received[6] == [0x22, 0x01, 0x00, 0x04, 0x2A, 0x00, 0x00, 0x00])
        #expect(received[7] == [0x21, 0x01, 0x00, 0x04, 0x2A, 0x00, 0x00, 0x00])
        #expect(run.stderr.contains("ranging on tcp:127.0.0.1:\(server.port) (UCI 1.1.0): session 42"), "\(run.stderr)")
    }

    @Test func rangePrintsReadableLines() async throws {
        let server = try ScriptedUCIServer(responder: ScriptedUWBS().responder)
        let run = try await ChildProcess.run(PackagePaths.nearby, [
            "uwb", "range", "--device", "tcp:127.0.0.1:\(server.port)", "--role", "responder", "--controlee", "--mac", "2", "--peer", "1",
            "--count", "3",
        ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        guard lines.count == 5 else { return }
        #expect(lines[0].hasPrefix("ranging on tcp:127.0.0.1:\(server.port) (UCI 1.1.0): session 1, responder controlee 0x0002 -> 0x0001"))
        #expect(lines[1].hasSuffix("s  0x0002    1.50 m  azimuth  -30.0°  elevation  10.5°  FoM 100  LoS"), "\(lines[1])")
        #expect(lines[2].hasSuffix("s  0x0002    1.52 m  azimuth  -29.5°  elevation  10.0°  FoM 100  LoS"), "\(lines[2])")
        #expect(lines[3].hasSuffix("s  0x0002  no measurement: RANGING_RX_TIMEOUT (0x21)"), "\(lines[3])")
        #expect(lines[4] == "stopped after 3 sample(s); session 1 closed")
        #expect(server.received[4].containsRun([0x11, 0x01, 0x00]) && server.received[4].containsRun([0x00, 0x01, 0x00]))
    }

    @Test(arguments: [(Int32(SIGINT), "interrupted (SIGINT)"), (Int32(SIGTERM), "terminated (SIGTERM)")])
    func aSignalStopsAndDeinitializesTheSession(signal: Int32, words: String) async throws {
        let server = try ScriptedUCIServer(responder: ScriptedUWBS().responder)
        let child = try ChildProcess(PackagePaths.nearby, ["uwb", "range", "--device", "tcp:127.0.0.1:\(server.port)", "--session-id", "0x10"])
        try await child.waitForOutput("RANGING_RX_TIMEOUT", timeout: .seconds(60))
        child.signal(signal)
        let status = try await child.waitForExit()
        #expect(status == 0, "\(child.stdout)\n\(child.stderr)")
        #expect(child.stdout.contains("stopped after 3 sample(s), \(words); session 16 closed"), "\(child.stdout)")
        #expect(server.received.suffix(2) == [[0x22, 0x01, 0x00, 0x04, 0x10, 0x00, 0x00, 0x00], [0x21, 0x01, 0x00, 0x04, 0x10, 0x00, 0x00, 0x00]])
    }

    @Test(arguments: [
        (["--channel", "7"], "channel (CHANNEL_NUMBER, 0x04) = 7: allowed 5, 6, 8, 9, 10, 12, 13 or 14"),
        (["--mac", "zz"], "--mac \"zz\" is not a MAC address"),
        (["--mac", "0x0002"], "0x0002 is this device's own address"),
        (["--session-id", "x"], "--session-id \"x\" is not a number"),
        (["--count", "0"], "--count must be at least 1"),
        (["--interval-ms", "20"], "a round of 25 slots × 2400 RSTU lasts 50 ms, longer than the interval"),
        (["--role", "observer"], "--role"),
    ])
    func badFlagsAreRefusedBeforeTheDeviceIsOpened(flags: [String], message: String) async throws {
        let run = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "range", "--device", "tcp:127.0.0.1:9"] + flags)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func aParameterTheDevKitRefusesIsNamedAndTheSessionDeinitialized() async throws {
        // SET_APP_CONFIG_RSP: INVALID_PARAM, CHANNEL_NUMBER refused with INVALID_RANGE.
        let uwbs = ScriptedUWBS(appConfigResponse: [0x41, 0x03, 0x00, 0x04, 0x04, 0x01, 0x04, 0x05])
        let server = try ScriptedUCIServer(responder: uwbs.responder)
        let run = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "range", "--device", "tcp:127.0.0.1:\(server.port)", "--count", "1"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the UWBS refused 1 parameter of session 0x00000001: CHANNEL_NUMBER (0x04) = channel 9: INVALID_RANGE (0x05)"),
                "\(run.stderr)")
        #expect(server.received.last == [0x21, 0x01, 0x00, 0x04, 0x01, 0x00, 0x00, 0x00])
    }

    @Test(arguments: [(UMockdevEmulator.Kit.dwm3001cdk, "usb:1915:520f"), (.sr150, "usb:0403:6015")])
    func infoAndRangeThroughAnEmulatedDevKit(kit: UMockdevEmulator.Kit, device: String) async throws {
        let server = try ScriptedUCIServer(responder: ScriptedUWBS().responder)
        let info = try await UMockdevEmulator.run(
            kit: kit, uciPort: server.port, command: [PackagePaths.nearby.path, "uwb", "info", "--device", device, "--json"])
        #expect(info.status == 0, "\(info.stdout)\n\(info.stderr)")
        let object = try #require(try Self.objects(info.stdout).first)
        #expect(object["device"] as? String == device)
        #expect(object["uci_version"] as? String == "1.1.0")

        let range = try await UMockdevEmulator.run(
            kit: kit, uciPort: server.port,
            command: [PackagePaths.nearby.path, "uwb", "range", "--device", device, "--session-id", "7", "--count", "3", "--json"])
        #expect(range.status == 0, "\(range.stdout)\n\(range.stderr)")
        Self.checkSamples(try Self.objects(range.stdout))
        #expect(server.received.suffix(2) == [[0x22, 0x01, 0x00, 0x04, 0x07, 0x00, 0x00, 0x00], [0x21, 0x01, 0x00, 0x04, 0x07, 0x00, 0x00, 0x00]])
    }

    /// Unplug the emulated kit while ranging, plug it back: the session is restored and ranging
    /// goes on (the scripted UWBS sends 3 samples per SESSION_START).
    @Test(arguments: [(UMockdevEmulator.Kit.dwm3001cdk, "usb:1915:520f"), (.sr150, "usb:0403:6015")])
    func rangingSurvivesAnUnplug(kit: UMockdevEmulator.Kit, device: String) async throws {
        let server = try ScriptedUCIServer(responder: ScriptedUWBS().responder)
        let emulator = try UMockdevEmulator.start(
            kit: kit, uciPort: server.port,
            command: [PackagePaths.nearby.path, "uwb", "range", "--device", device, "--session-id", "7", "--count", "6", "--json"],
            needsBoardConfiguration: kit == .sr150)
        try await emulator.waitForOutput("RANGING_RX_TIMEOUT", timeout: .seconds(60))
        emulator.signal(SIGUSR1)
        try await emulator.waitForOutput("dev kit lost", timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(300))
        emulator.signal(SIGUSR2)
        let status = try await emulator.waitForExit(timeout: .seconds(120))
        #expect(status == 0, "\(emulator.stdout)\n\(emulator.stderr)")
        #expect(emulator.stderr.contains("dev kit back, sessions restored: 0x00000007"), "\(emulator.stderr)")
        let objects = try Self.objects(emulator.stdout)
        #expect(objects.count == 6)
        Self.checkSamples(Array(objects.prefix(3)))
        Self.checkSamples(Array(objects.suffix(3)))
        #expect(server.connectionCount == 2)
        #expect(server.received.filter { $0 == ScriptedUWBS.reset }.count == 2)
        if kit == .sr150 {
            // The replugged board starts from scratch and needs its board configuration again.
            #expect(UMockdevEmulator.events(in: emulator.stderr).filter { $0.hasPrefix("board-config ") }.count == 2, "\(emulator.stderr)")
        }
        #expect(server.received.filter { Array($0.prefix(2)) == [0x22, 0x00] }.count == 2)
    }
}

extension Array where Element == UInt8 {
    /// `true` if `run` occurs contiguously.
    func containsRun(_ run: [UInt8]) -> Bool {
        guard run.count <= count else { return false }
        return (0...(count - run.count)).contains { Array(self[$0..<($0 + run.count)]) == run }
    }
}
