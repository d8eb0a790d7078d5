import Foundation
import NearbyTestSupport
import Testing
import UCI
import UWBDevice

/// `nearby accessory` end to end: the built executable as the accessory, Bumble's virtual
/// controllers for BLE, `nearby sim uwbs` for UWB; the phone is our own `nearby range` (a
/// second process on a second controller of the same air) or Bumble phones.
@Suite("nearby accessory", .serialized)
struct AccessoryRoleCommandTests {
    /// `nearby sim uwbs` on a free port, no noise.
    static func uwbs(_ extra: [String] = []) async throws -> (ChildProcess, Int) {
        let server = try ChildProcess(PackagePaths.nearby, ["sim", "uwbs", "--listen", "127.0.0.1:0", "--noise", "ideal"] + extra)
        try await server.waitForOutput("listening on 127.0.0.1:")
        guard let match = server.stdout.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(server.stdout[match].split(separator: ":").last ?? "") else {
            server.terminate()
            throw ChildProcessError("no port in: \(server.stdout)")
        }
        return (server, port)
    }

    /// A fresh store path under /tmp (the accessory's bonds and its kit's UWB address go beside it).
    static func store() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("nearby-accessory-\(UUID().uuidString)/accessories.json").path
    }

    static func jsonObjects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits until `child` printed `count` update objects with a distance for `accessory`.
    static func waitForUpdates(_ child: ChildProcess, of accessory: String, count: Int, timeout: Duration = .seconds(90)) async throws -> [[String: Any]] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let updates = jsonObjects(child.stdout).filter {
                $0["event"] as? String == "update" && $0["accessory"] as? String == accessory && $0["distance_m"] is Double
            }
            if updates.count >= count { return updates }
            guard clock.now < deadline else {
                throw ChildProcessError("\(updates.count) of \(count) updates of \(accessory):\n\(child.stdout.suffix(3000))\n\(child.stderr.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test("argument errors are usage errors")
    func arguments() async throws {
        for (arguments, text) in [
            (["--service", "bogus"], "--service must list qnis, nus or apple"),
            (["--config-version", "2.0"], "--config-version must be 1.0 or 1.1"),
            (["--mac", "FFFF"], "--mac must be 1-4 hex digits"),
            (["--max-phones", "9"], "--max-phones must be 1-8"),
            (["--role", "tag"], "--role must be responder or initiator"),
            (["--hci", "bogus"], "--hci"),
        ] {
            let run = try await ChildProcess.run(PackagePaths.nearby, ["accessory", "--uwb", "sim"] + arguments, timeout: .seconds(60))
            #expect(run.status == 64 && run.stderr.contains(text), "\(arguments): \(run.stderr)")
        }
    }

    @Test("our phone role and our accessory role: two processes on two controllers of one air, both kits in one virtual world; both range; the accessory's --hci-log and --uci-log")
    func phoneAndAccessoryProcesses() async throws {
        let (server, uwbsPort) = try await Self.uwbs()
        defer { server.terminate() }
        let phonePort = try freeTCPPort()
        let air = try await BumblePeerProcess(["--accessories", "0", "--second-port", "\(phonePort)"])
        defer { air.stop() }
        let captures = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-accessory-captures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: captures) }
        let (hciLog, uciLog) = (captures.appendingPathComponent("hci.btsnoop").path, captures.appendingPathComponent("uci.pcapng").path)
        let accessory = try ChildProcess(PackagePaths.nearby, [
            "accessory", "--hci", air.hciSpec, "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--name", "door", "--json", "--store", Self.store(),
            "--hci-log", hciLog, "--uci-log", uciLog,
        ])
        defer { accessory.terminate() }
        try await accessory.waitForOutput("waiting for phones", timeout: .seconds(60))
        guard let match = accessory.stderr.range(of: #"as ([0-9A-F]{2}:){5}[0-9A-F]{2}"#, options: .regularExpression) else {
            throw ChildProcessError("no address in: \(accessory.stderr)")
        }
        let address = String(accessory.stderr[match].dropFirst(3))
        let phone = try ChildProcess(PackagePaths.nearby, [
            "range", address, "--hci", "tcp:127.0.0.1:\(phonePort)", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json", "--store", Self.store(),
        ])
        defer { phone.terminate() }
        let seenByPhone = try await Self.waitForUpdates(phone, of: address, count: 5)
        let accessoryUpdates = try await Self.waitForUpdates(accessory, of: try #require(Self.jsonObjects(accessory.stdout).first {
            $0["event"] as? String == "update" }?["accessory"] as? String), count: 5)
        #expect(seenByPhone.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.05 }, "\(seenByPhone.suffix(3))")
        #expect(accessoryUpdates.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.05 }, "\(accessoryUpdates.suffix(3))")
        let states = Self.jsonObjects(accessory.stdout).filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
        #expect(Array(states.prefix(5)) == ["idle", "initializing", "configuring", "starting", "ranging"], "\(states)")

        phone.signal(SIGINT)
        #expect(try await phone.waitForExit(timeout: .seconds(30)) == 0, "\(phone.stderr)")
        // The phone sent 0x0C before disconnecting: the accessory stopped, then saw it leave.
        for _ in 0..<100 where !accessory.stdout.contains("\"state\":\"stopped\"") { try await Task.sleep(for: .milliseconds(100)) }
        let after = Self.jsonObjects(accessory.stdout).filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
        #expect(after.suffix(2) == ["idle", "stopped"], "\(after)")
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0, "\(accessory.stderr)")
        #expect(accessory.stderr.contains("stopped; summary:"))
        #expect(!accessory.stderr.contains("not recorded"), "\(accessory.stderr)")

        // --hci-log: the phone's ATT writes to our GATT server and our notifications, dissected.
        for path in [hciLog, uciLog] {
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(path)")
        }
        let rows = try await Tshark.fields(hciLog, ["frame.number", "btatt.opcode", "_ws.malformed"])
        #expect(rows.allSatisfy { $0.count == 3 && $0[2].isEmpty }, "no malformed frame")
        let att = Set(rows.flatMap { $0[1].split(separator: ",").map(String.init) })
        #expect((att.contains("0x12") || att.contains("0x52")) && att.contains("0x1b"), "the phone's writes and our notifications: \(att)")
        // --uci-log: the accessory's kit configured a session and sent range notifications.
        let file = try PcapNGReader(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: uciLog))))
        #expect(file.linkTypes == [299])
        let packets = try file.packets.map { ($0.direction, try UCIPacket(bytes: $0.bytes)) }
        #expect(packets.contains { $0.0 == .outbound && $0.1.header.opcode == .sessionSetAppConfig })
        #expect(packets.contains { $0.0 == .inbound && $0.1.header.opcode == .sessionInfo && $0.1.header.messageType == .notification })
    }
}

/// `nearby accessory` on an emulated DWM3001CDK (umockdev: real libusb, the board's UCI bridged
/// to `nearby sim uwbs` speaking UCI 1.1 like Qorvo's firmware), with Bumble phones.
@Suite("nearby accessory on an emulated DWM3001CDK", .serialized)
struct AccessoryRoleEmulatedKitTests {
    /// The UCI commands the host sent to the board (`uci-to-uwbs` lines of the emulator).
    static func commands(_ stderr: String) -> [[UInt8]] {
        UMockdevEmulator.events(in: stderr).compactMap { line in
            guard line.hasPrefix("uci-to-uwbs ") else { return nil }
            return line.dropFirst("uci-to-uwbs ".count).split(separator: " ").compactMap { UInt8($0, radix: 16) }
        }
    }

    /// The TLVs of a UCI 1.1 SESSION_SET_APP_CONFIG_CMD packet (header, session ID, count, TLVs).
    static func tlvs(_ packet: [UInt8]) -> [UInt8: [UInt8]] {
        var result: [UInt8: [UInt8]] = [:]
        var index = 4 + 4 + 1
        while index + 2 <= packet.count {
            let (id, length) = (packet[index], Int(packet[index + 1]))
            guard index + 2 + length <= packet.count else { break }
            result[id] = Array(packet[(index + 2)..<(index + 2 + length)])
            index += 2 + length
        }
        return result
    }

    static func sessionCommand(_ gid: UInt8, _ oid: UInt8, _ session: UInt32) -> [UInt8] {
        [0x20 | gid, oid, 0x00, 0x04] + (0..<4).map { UInt8(truncatingIfNeeded: session >> (8 * $0)) }
    }

    @Test("SET_APP_CONFIG carries what the phone's shareable data asked for; STOP + DEINIT after 0x0C and after a phone leaves; advertising resumes for the next phone")
    func emulatedKit() async throws {
        let (server, uwbsPort) = try await AccessoryRoleCommandTests.uwbs(["--uci-version", "1.1", "--auto-peers"])
        defer { server.terminate() }
        // Phone 1 ranges, sends 0x0C, leaves; phone 2 (later) finds the accessory advertising again
        // (one phone at a time, the default: a second phone never takes rounds from the first),
        // ranges and leaves without 0x0C.
        let air = try await BumblePeerProcess(["--accessories", "0", "--phones", "2", "--phone-script", "ni-stop,ni-leave", "--phone-hold", "1.5"])
        defer { air.stop() }
        let accessory = try UMockdevEmulator.start(kit: .dwm3001cdk, uciPort: uwbsPort, command: [
            PackagePaths.nearby.path, "accessory", "--hci", air.hciSpec, "--uwb", "usb:1915:520f", "--mac", "0A0B",
            "--json", "--store", AccessoryRoleCommandTests.store(),
        ])
        defer { accessory.terminate() }
        try await air.process.waitForOutput("PHONE-DISCONNECTED reason=0x13 phone=2", timeout: .seconds(120))
        #expect(air.lines("PHONE-STOPPED phone=1").count == 1, "0x0C answered 0x03: \(air.process.stdout)")
        #expect(air.lines("PHONE-STARTED session=0x00005002").count == 1)
        let acd = try #require(air.lines("PHONE-ACD").first)
        #expect(acd.contains("length=38 hex=01" + "01000000" + "00" + String(repeating: "00", count: 10) + "15" + "01000100" + "3ff50300" + "b80b0000" + "00000101" + "00" + "0b0a" + "1900"),
                "ACD 1.0 with UWB config 1.1: Qorvo's IDs, middleware from the kit's UCI 1.1, responder, MAC 0x0A0B, 25 ppm: \(acd)")
        let uciDeadline = ContinuousClock.now.advanced(by: .seconds(20))
        while !Self.commands(accessory.stderr).contains(Self.sessionCommand(1, 0x01, 0x5002)), ContinuousClock.now < uciDeadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let commands = Self.commands(accessory.stderr)
        // SESSION_INIT 0x5001, SET_APP_CONFIG with the phone's values, value by value.
        #expect(commands.contains([0x21, 0x00, 0x00, 0x05, 0x01, 0x50, 0x00, 0x00, 0x00]))
        let config = try #require(commands.first { $0.starts(with: [0x21, 0x03]) && Array($0[4..<8]) == [0x01, 0x50, 0x00, 0x00] })
        let values = Self.tlvs(config)
        let expected: [UInt8: [UInt8]] = [
            0x00: [0x00],                          // DEVICE_TYPE controlee
            0x11: [0x00],                          // DEVICE_ROLE responder
            0x01: [0x02],                          // RANGING_ROUND_USAGE DS-TWR deferred
            0x02: [0x00],                          // STS_CONFIG static
            0x03: [0x00],                          // MULTI_NODE_MODE unicast
            0x04: [0x09],                          // CHANNEL_NUMBER: the shareable's 9
            0x14: [0x0B],                          // PREAMBLE_CODE_INDEX: its 11
            0x08: [0x10, 0x0E],                    // SLOT_DURATION: its 3600 RSTU
            0x09: [0x78, 0x00, 0x00, 0x00],        // RANGING_INTERVAL: its 120 ms
            0x1B: [0x07],                          // SLOTS_PER_RR: Qorvo's 1 + 6
            0x06: [0x0B, 0x0A],                    // DEVICE_MAC_ADDRESS: --mac 0A0B
            0x07: [0x01, 0x11],                    // DST_MAC_ADDRESS: the phone's 0x1101
            0x27: [0x4C, 0x00],                    // VENDOR_ID Apple, vendor-first
            0x28: [0x39, 0x7B, 0x28, 0xD4, 0xB8, 0xD7], // STATIC_STS_IV: its IV, wire order
        ]
        for (id, value) in expected {
            #expect(values[id] == value, "TLV 0x\(String(id, radix: 16)): \(values[id].map { $0.map { String($0, radix: 16) } } ?? ["missing"])")
        }
        // 0x0C: SESSION_STOP + SESSION_DEINIT of 0x5001, before phone 2's session.
        let stop1 = try #require(commands.firstIndex(of: Self.sessionCommand(2, 0x01, 0x5001)))
        let deinit1 = try #require(commands.firstIndex(of: Self.sessionCommand(1, 0x01, 0x5001)))
        let init2 = try #require(commands.firstIndex(of: [0x21, 0x00, 0x00, 0x05, 0x02, 0x50, 0x00, 0x00, 0x00]))
        #expect(stop1 < deinit1 && deinit1 < init2)
        // Phone 2 left without 0x0C: STOP + DEINIT of 0x5002 all the same.
        #expect(commands.contains(Self.sessionCommand(2, 0x01, 0x5002)) && commands.contains(Self.sessionCommand(1, 0x01, 0x5002)))
        // Advertising: paused with phone 1 connected (the limit), enabled again when it left.
        #expect(air.lines("ADV-ENABLE").count >= 2, "\(air.lines("ADV-ENABLE"))")
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0, "\(accessory.stderr.suffix(2000))")
    }

    @Test("two phones at once, a phone that never subscribes, garbage and unknown IDs, ATT_MTU 23: each refused clearly, the others served")
    func misbehavingPhones() async throws {
        let (server, uwbsPort) = try await AccessoryRoleCommandTests.uwbs(["--auto-peers"])
        defer { server.terminate() }
        let air = try await BumblePeerProcess(["--accessories", "0", "--phones", "4", "--phone-script", "ni,never-subscribe,garbage,mtu23"])
        defer { air.stop() }
        let accessory = try ChildProcess(PackagePaths.nearby, [
            "accessory", "--hci", air.hciSpec, "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json", "--store", AccessoryRoleCommandTests.store(),
            "--max-phones", "4", "--log-level", "info",
        ])
        defer { accessory.terminate() }
        try await air.process.waitForOutput("PHONE-STARTED session=0x00005004", timeout: .seconds(120))
        try await air.process.waitForOutput("PHONE-STARTED session=0x00005003", timeout: .seconds(30))
        // Each phone runs on its own in the air process, and nearby reports each refusal when it
        // gets to it: wait for every line rather than assume the others came first.
        for line in ["PHONE-STARTED session=0x00005001", "PHONE-WRITE-ACCEPTED phone=2", "PHONE-NO-ACD phone=2", "PHONE-NO-START phone=3",
                     "PHONE-NO-ACD phone=4", "PHONE-UNEXPECTED data=03 phone=4"] {
            try await air.process.waitForOutput(line, timeout: .seconds(30))
        }
        #expect(air.lines("PHONE-STARTED session=0x00005001").count == 1, "the well-behaved phone ranges: \(air.process.stdout)")
        #expect(air.lines("PHONE-WRITE-ACCEPTED phone=2").count == 1 && air.lines("PHONE-NO-ACD phone=2").count == 1,
                "accepted; its answer waits for a subscription that never comes")
        #expect(air.lines("PHONE-NO-START phone=3").count == 1, "garbage and invalid shareable data start nothing")
        #expect(air.lines("PHONE-NO-ACD phone=4").count == 1, "38 bytes do not fit ATT_MTU 23")
        func errorMessages() -> String {
            let errors = AccessoryRoleCommandTests.jsonObjects(accessory.stdout).filter { $0["event"] as? String == "error" }
            return errors.compactMap { $0["message"] as? String ?? $0["reason"] as? String }.joined(separator: "\n")
        }
        var messages = errorMessages()
        for _ in 0..<300 where !(messages.contains("unknown message ID 0x42") && messages.contains("channel") && messages.contains("ATT_MTU 23")) {
            try await Task.sleep(for: .milliseconds(100))
            messages = errorMessages()
        }
        #expect(messages.contains("unknown message ID 0x42"), "\(messages)")
        #expect(messages.contains("channel"), "the invalid field is named: \(messages)")
        #expect(messages.contains("ATT_MTU 23"), "\(messages)")
        #expect(air.lines("PHONE-UNEXPECTED data=03 phone=4").count == 1, "ATT_MTU 23: 0x03 instead of 0x01, never silence")
        #expect(accessory.stderr.contains("before subscribing to TX: the answer waits for its subscription"), "the early write is logged")
        // Every phone's distance comes through the run: the well-behaved ones range.
        _ = try await AccessoryRoleCommandTests.waitForUpdates(accessory, of: "D0:00:00:00:00:01", count: 3)
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0)
    }
}

/// Apple's sample app as it is (a Bumble central doing what its `BluetoothLECentral.swift` and
/// `AccessoryDemoViewController.swift` do: Tests/Peers/blepeer/phone.py, `apple-sample`)
/// against `nearby accessory` started with no flags, on an emulated DWM3001CDK (the only kit
/// plugged in) whose UCI answers slowly, like a real kit on USB.
@Suite("nearby accessory with Apple's sample app", .serialized)
struct AccessoryRoleAppleSampleTests {
    /// A configuration directory naming only what this machine lacks: the controller (Bumble's,
    /// on TCP), and JSON output and info logs for the test to read.
    static func home(hci: String) throws -> (config: String, state: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-apple-sample-\(UUID().uuidString)")
        let config = root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("nearby"), withIntermediateDirectories: true)
        try "[transports]\nhci = \"\(hci)\"\n\n[output]\njson = true\nlog_level = \"info\"\n".write(
            to: config.appendingPathComponent("nearby/config.toml"), atomically: true, encoding: .utf8)
        return (config.path, root.appendingPathComponent("state").path)
    }

    @Test("no flags: the sample finds Nordic UART, ranges two cycles (the second its timeout retry), reconnects at once and taps before subscribing: answered, ranging again")
    func appleSampleWithTheDefaults() async throws {
        // 300 ms per UCI command: STOP + DEINIT of the old session take longer than the phone's reconnect.
        let (server, uwbsPort) = try await AccessoryRoleCommandTests.uwbs(["--uci-version", "1.1", "--auto-peers", "--response-delay-ms", "300"])
        defer { server.terminate() }
        let air = try await BumblePeerProcess(["--accessories", "0", "--phones", "1", "--phone-script", "apple-sample", "--phone-hold", "2"])
        defer { air.stop() }
        let home = try Self.home(hci: air.hciSpec)
        let accessory = try UMockdevEmulator.start(
            kit: .dwm3001cdk, uciPort: uwbsPort, command: [PackagePaths.nearby.path, "accessory"],
            environment: ["XDG_CONFIG_HOME": home.config, "XDG_STATE_HOME": home.state])
        defer { accessory.terminate() }
        try await air.process.waitForOutput("PHONE-CYCLE-DONE cycle=3", timeout: .seconds(240))
        // Found by the Nordic UART service, the only thing it scans for: in the advertising data
        // (flags, NUS); Qorvo's QNIS and the name in the scan response.
        let advertising = "data=0201061106" + "9ecadc240ee5a9e093f3a3b50100406e"
        let scanResponse = "data=07096e6561726279" + "1106" + "020012ac4202eba1ed11616ad08f932e"
        #expect(air.lines("ADV-DATA").allSatisfy { $0.hasSuffix(advertising) }, "\(air.lines("ADV-DATA"))")
        #expect(air.lines("SCAN-RESPONSE-DATA").allSatisfy { $0.hasSuffix(scanResponse) }, "\(air.lines("SCAN-RESPONSE-DATA"))")
        #expect(!air.lines("ADV-DATA").isEmpty)
        let seen = air.lines("PHONE-SEEN")
        #expect(seen.count == 2 && seen.allSatisfy { $0.contains("service=6E400001-B5A3-F393-E0A9-E50E24DCCA9E") }, "\(seen)")
        #expect(air.lines("PHONE-SERVICE name=nus").count == 2)
        // Two cycles: 0x0A/0x0B, then the timeout retry 0x0C + 0x0A (0x03, a fresh 0x01) and a new session.
        #expect(air.lines("PHONE-STARTED session=0x00005011").count == 1 && air.lines("PHONE-STARTED session=0x00005021").count == 1,
                "\(air.process.stdout)")
        #expect(air.lines("PHONE-STOPPED").count == 1)
        // The fast reconnect and the early tap: accepted, answered once subscribed, ranging again.
        #expect(air.lines("PHONE-RECONNECTING").count == 1 && air.lines("PHONE-EARLY-WRITE accepted").count == 1)
        #expect(air.lines("PHONE-ACD length=38").contains { $0.contains("after-early-write") })
        #expect(air.lines("PHONE-STARTED session=0x00005031").count == 1, "\(air.process.stdout)")
        #expect(air.lines("PHONE-NO-").isEmpty && air.lines("PHONE-ERROR").isEmpty, "\(air.process.stdout)")
        let phone = "D0:00:00:00:00:01"
        let updates = try await AccessoryRoleCommandTests.waitForUpdates(accessory, of: phone, count: 3)
        #expect(updates.suffix(3).allSatisfy { ($0["distance_m"] as? Double ?? 0) > 0 }, "\(updates.suffix(3))")
        let states = AccessoryRoleCommandTests.jsonObjects(accessory.stdout).filter { $0["event"] as? String == "state" }
            .compactMap { $0["state"] as? String }
        #expect(states.filter { $0 == "ranging" }.count >= 3, "three cycles ranged: \(states)")
        #expect(!accessory.stderr.contains("beyond the limit"), "the reconnecting phone was not refused")
        #expect(accessory.stderr.contains("wrote 1 bytes to Nordic UART RX before subscribing to TX"), "the early write, logged")
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(60)) == 0, "\(accessory.stderr.suffix(2000))")
    }

    @Test("Qorvo's 0x20 / 0x21 through the whole path: the device parameters and 0x22 ok / bad length / bad version, then ranging")
    func qorvoSettingsMessages() async throws {
        let (server, uwbsPort) = try await AccessoryRoleCommandTests.uwbs(["--auto-peers"])
        defer { server.terminate() }
        let air = try await BumblePeerProcess(["--accessories", "0", "--phones", "1", "--phone-script", "qorvo-params"])
        defer { air.stop() }
        let accessory = try ChildProcess(PackagePaths.nearby, [
            "accessory", "--hci", air.hciSpec, "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--mac", "0A0B", "--json",
            "--store", AccessoryRoleCommandTests.store(),
        ])
        defer { accessory.terminate() }
        try await air.process.waitForOutput("PHONE-STARTED", timeout: .seconds(120))
        // Qorvo's defaults with this accessory's address (0x0A0B).
        let params = try #require(air.lines("PHONE-DEVICE-PARAMS hex=").first)
        let defaults = "hex=20010101020309" + "0b0001" + "0b0a" + "0100" + "6009" + "0000" + "57040000" + "64000000" + "e0470000" + "01000000"
        #expect(params.contains(defaults), "\(params)")
        #expect(air.lines("PHONE-SET-ACK case=ok hex=2200").count == 1)
        #expect(air.lines("PHONE-SET-ACK case=bad-length hex=2201").count == 1)
        #expect(air.lines("PHONE-SET-ACK case=bad-version hex=2202").count == 1)
        let after = try #require(air.lines("PHONE-DEVICE-PARAMS-AFTER hex=").first)
        #expect(after.contains("hex=20010101020305") && after.contains("78563412"), "channel 5 and session 0x12345678 kept: \(after)")
        _ = try await AccessoryRoleCommandTests.waitForUpdates(accessory, of: "D0:00:00:00:00:01", count: 3)
        #expect(!AccessoryRoleCommandTests.jsonObjects(accessory.stdout).contains { $0["event"] as? String == "error" },
                "nothing refused")
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0)
    }
}
