import Foundation
import NearbySupport
import NearbyTestSupport
import Testing

/// `nearby scan`, `setup --pair`, `accessories forget`, `range`, `accessory` and `doctor` over
/// `--hci bluez`: the built executable talks D-Bus to the mock bluetoothd
/// (Tests/Peers/bluez_mock.py on a private dbus-daemon, `DBUS_SYSTEM_BUS_ADDRESS`), whose radio is
/// the same Bumble controller and accessories the HCI tests use; the expectations are the HCI
/// tests' where the backends agree.
@Suite("nearby over --hci bluez", .serialized)
struct BlueZCommandTests {
    static func nearby(_ arguments: [String], _ bluez: BlueZMockProcess, timeout: Duration = .seconds(90))
        async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, arguments, environment: bluez.environment, timeout: timeout)
    }

    static func start(_ peerArguments: [String] = [], bluez options: [String] = []) async throws -> (BumblePeerProcess, BlueZMockProcess) {
        let peer = try await BumblePeerProcess(peerArguments)
        do {
            return (peer, try await BlueZMockProcess(hciPort: peer.port, arguments: options))
        } catch {
            peer.stop()
            throw error
        }
    }

    @Test("scan --hci bluez --json prints the same objects as over HCI; without --hci, bluetoothd owning a powered adapter is the default")
    func scanJSON() async throws {
        let (peer, bluez) = try await Self.start([
            "--name", "Tag-K", "--advertise-uuid", "FE9A", "--manufacturer-data", "004C:0A0B0C", "--service-data", "FE9A:0102",
        ])
        defer {
            bluez.stop()
            peer.stop()
        }
        let run = try await Self.nearby(["scan", "--hci", "bluez", "--duration", "2", "--json", "--service", "FE9A", "--name", "tag", "--ignore-case"], bluez)
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try AccessoryCommandTests.jsonObjects(run.stdout)
        #expect(objects.count >= 2, "\(run.stdout)")
        for object in objects {
            #expect(Set(object.keys) == ["address", "address_type", "rssi", "name", "service_uuids", "manufacturer", "service_data"])
            #expect(object["address"] as? String == "F0:F1:F2:F3:F4:F5")
            #expect(object["address_type"] as? String == "random")
            #expect(object["rssi"] as? Int == -50)
            #expect(object["name"] as? String == "Tag-K")
            #expect(object["service_uuids"] as? [String] == ["FE9A"])
            let manufacturer = try #require(object["manufacturer"] as? [String: Any])
            #expect(manufacturer["company"] as? Int == 0x004C && manufacturer["data"] as? String == "0a0b0c")
            #expect(object["service_data"] as? [String: String] == ["FE9A": "0102"])
        }
        #expect(run.stderr.contains("scanning on bluez (hci0) for service FE9A, name contains \"tag\" (any case) for 2 s"), "\(run.stderr)")
        #expect(bluez.lines("BLUEZ-FILTER").first?.contains("duplicate=1") == true)

        // No --hci: bluetoothd owns a powered adapter, so nearby shares it.
        let automatic = try await Self.nearby(["scan", "--duration", "1", "--json"], bluez)
        #expect(automatic.status == 0 && automatic.stderr.contains("scanning on bluez (hci0)"), "\(automatic.stderr)")
        // --hci-log records this program's own host only.
        let log = try await Self.nearby(["scan", "--hci", "bluez", "--duration", "1", "--hci-log", "/tmp/x.btsnoop"], bluez)
        #expect(log.status == 64 && log.stderr.contains("sudo btmon -w"), "\(log.stderr)")
    }

    @Test("setup --pair through BlueZ: numeric comparison answered by the agent; the record says BlueZ keeps the bond (no keys in the store); forget removes the device from BlueZ")
    func pairAndForget() async throws {
        let (peer, bluez) = try await Self.start(["--services", "nus,qorvo,test", "--io", "displayyesno"])
        defer {
            bluez.stop()
            peer.stop()
        }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        let run = try await Self.nearby(["setup", "--hci", "bluez", "--pick", "first", "--timeout", "30", "--name", "Tag", "--pair", "--confirm",
                                         "--store", store, "--json"], bluez)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("paired (bond kept by BlueZ, Numeric Comparison)"), "\(run.stderr)")
        let printed = try #require(try AccessoryCommandTests.jsonObjects(run.stdout).first)
        #expect(printed["bonding"] as? String == "bonded" && printed["bond_holder"] as? String == "bluez" && printed["bonded"] as? Bool == true)
        // The same number on both sides, confirmed through BlueZ's agent call.
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("numeric comparison") })
        let digits = try #require(line.split(separator: " ").map(String.init).first { $0.count == 6 && $0.allSatisfy(\.isNumber) })
        try await peer.process.waitForOutput("COMPARE number=" + digits)
        #expect(bluez.lines("BLUEZ-AGENT call=RequestConfirmation").first?.contains("value=\(digits)") == true, "\(bluez.process.stdout)")
        #expect(bluez.lines("BLUEZ-PAIRED").first?.contains("method=numeric-comparison capability=KeyboardDisplay") == true)
        let file = String(decoding: try #require(try AtomicFile.read(store)), as: UTF8.self)
        #expect(!file.contains("peer_ltk") && file.contains("\"bond_holder\" : \"bluez\""), "BlueZ keeps the keys: \(file)")

        let forgot = try await Self.nearby(["accessories", "forget", "Tag", "--store", store], bluez)
        #expect(forgot.status == 0, "\(forgot.stderr)")
        #expect(forgot.stdout.contains("removed F0:F1:F2:F3:F4:F5 from BlueZ"), "\(forgot.stdout)")
        #expect(bluez.lines("BLUEZ-REMOVED").contains { $0.contains("address=F0:F1:F2:F3:F4:F5 reason=RemoveDevice") })
    }

    @Test("setup --pair --passkey through BlueZ: the agent types the accessory's passkey; a wrong one fails clearly and stores nothing")
    func passkey() async throws {
        let (peer, bluez) = try await Self.start(["--io", "display", "--passkey", "123456"])
        defer {
            bluez.stop()
            peer.stop()
        }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wrong = try await Self.nearby(["setup", "--hci", "bluez", "--pick", "first", "--timeout", "30", "--pair", "--passkey", "111111",
                                           "--store", directory + "/wrong.json"], bluez)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("pairing with F0:F1:F2:F3:F4:F5 failed") && wrong.stderr.contains("org.bluez.Error.AuthenticationFailed"),
                "\(wrong.stderr)")
        #expect(try AtomicFile.read(directory + "/wrong.json") == nil, "nothing stored")
        let right = try await Self.nearby(["setup", "--hci", "bluez", "--pick", "first", "--timeout", "30", "--pair", "--passkey", "123456",
                                           "--store", directory + "/right.json", "--json"], bluez)
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stderr.contains("paired (bond kept by BlueZ, Passkey Entry)"), "\(right.stderr)")
        #expect(bluez.lines("BLUEZ-AGENT call=RequestPasskey").count == 2)
        try await peer.process.waitForOutput("PAIRED sc=1")
    }

    @Test("range --hci bluez ranges with the Bumble NI accessory through BlueZ, as over HCI: zone, 2.0 m, states, the exchange time")
    func range() async throws {
        let (server, peer, uwbsPort, hciPort) = try await RangeEndToEndTests.startPeers()
        defer {
            peer.terminate()
            server.terminate()
        }
        let bluez = try await BlueZMockProcess(hciPort: hciPort)
        defer { bluez.stop() }
        let range = try ChildProcess(PackagePaths.nearby, [
            "range", NIAccessoryPeer.address, "--hci", "bluez", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json",
            "--store", RangeCommandTests.emptyStore(),
        ], environment: bluez.environment)
        defer { range.terminate() }
        try await range.waitForOutput("\"type\":\"zone\",\"from\":null,\"to\":\"mid\"", timeout: .seconds(60))
        _ = try await AccessoryRoleCommandTests.waitForUpdates(range, of: NIAccessoryPeer.address, count: 6)
        range.signal(SIGINT)
        #expect(try await range.waitForExit(timeout: .seconds(30)) == 0, "\(range.stderr)")
        let objects = AccessoryRoleCommandTests.jsonObjects(range.stdout)
        let updates = objects.filter { $0["event"] as? String == "update" }
        #expect(updates.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.01 }, "\(updates.suffix(3))")
        let states = objects.filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
        #expect(states == ["initializing", "configuring", "starting", "ranging", "stopped"], "\(states)")
        let configured = try #require(objects.first { $0["event"] as? String == "configured" })
        let exchange = try #require(configured["exchange_ms"] as? Double)
        #expect(exchange > 0 && exchange >= (configured["total_ms"] as? Double ?? .infinity))
        print("config exchange 0x0A -> 0x01 -> 0x0B through BlueZ (nearby range): \(exchange) ms")
        try await peer.waitForOutput("NI-STOP")
        #expect(bluez.lines("BLUEZ-ACQUIRE-NOTIFY").count == 1 && bluez.lines("BLUEZ-ACQUIRE-WRITE").count == 1)
    }

    /// bluetoothd ends a link 2 s after `Device1.Disconnect` (the mock as well): `nearby range`
    /// stops every session, then closes the channels together, so both requests reach bluetoothd
    /// before the first link ends (one after another, the second would come after it).
    @Test("range --hci bluez with two accessories: both get the stop message, and both disconnects are asked for before the first link ends")
    func rangeTwo() async throws {
        let (server, peer, uwbsPort, hciPort) = try await RangeEndToEndTests.startPeers(peerArguments: ["--accessories", "2"])
        defer {
            peer.terminate()
            server.terminate()
        }
        let bluez = try await BlueZMockProcess(hciPort: hciPort)
        defer { bluez.stop() }
        let second = "F0:F1:F2:F3:F4:F6"
        let range = try ChildProcess(PackagePaths.nearby, [
            "range", NIAccessoryPeer.address, second, "--hci", "bluez", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json",
            "--store", RangeCommandTests.emptyStore(),
        ], environment: bluez.environment)
        defer { range.terminate() }
        _ = try await AccessoryRoleCommandTests.waitForUpdates(range, of: NIAccessoryPeer.address, count: 3)
        _ = try await AccessoryRoleCommandTests.waitForUpdates(range, of: second, count: 3)
        range.signal(SIGINT)
        #expect(try await range.waitForExit(timeout: .seconds(30)) == 0, "\(range.stderr)")
        try await peer.waitForOutput("NI-STOP", count: 2)
        #expect(peer.stdout.contains("data=0c accessory=\(NIAccessoryPeer.address)") && peer.stdout.contains("data=0c accessory=\(second)"))
        try await bluez.process.waitForOutput("BLUEZ-DISCONNECTED", count: 2)
        let order = bluez.process.stdout.split(separator: "\n").filter { $0.hasPrefix("BLUEZ-DISCONNECT") }
        #expect(order.count == 4 && order.prefix(2).allSatisfy { $0.hasPrefix("BLUEZ-DISCONNECT-REQUESTED") }, "\(order)")
    }

    @Test("accessory --hci bluez: a GATT application and an advertisement through BlueZ; our phone role (own host, second controller) ranges with it; one phone at a time")
    func accessory() async throws {
        let (server, uwbsPort) = try await AccessoryRoleCommandTests.uwbs()
        defer { server.terminate() }
        let phonePort = try freeTCPPort()
        let air = try await BumblePeerProcess(["--accessories", "0", "--second-port", "\(phonePort)"])
        defer { air.stop() }
        let bluez = try await BlueZMockProcess(hciPort: air.port)
        defer { bluez.stop() }
        let accessory = try ChildProcess(PackagePaths.nearby, [
            "accessory", "--hci", "bluez", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--name", "door", "--json", "--store", AccessoryRoleCommandTests.store(),
        ], environment: bluez.environment)
        defer { accessory.terminate() }
        try await accessory.waitForOutput("waiting for phones", timeout: .seconds(60))
        #expect(accessory.stderr.contains("as \(bluez.adapterAddress)"), "the adapter's address: \(accessory.stderr)")
        let registered = try #require(bluez.lines("BLUEZ-REGISTER-ADVERTISEMENT").first)
        // The defaults (nus,qnis): Nordic UART advertised (what Apple's sample app scans for), both served.
        #expect(registered.contains("uuids=6E400001-B5A3-F393-E0A9-E50E24DCCA9E name=door"), "\(registered)")
        let application = bluez.lines("BLUEZ-REGISTER-APPLICATION").first ?? ""
        #expect(application.contains("6E400001-B5A3-F393-E0A9-E50E24DCCA9E") && application.contains("2E938FD0-6A61-11ED-A1EB-0242AC120002"), "\(application)")
        let phone = try ChildProcess(PackagePaths.nearby, [
            "range", bluez.adapterAddress, "--hci", "tcp:127.0.0.1:\(phonePort)", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json",
            "--store", AccessoryRoleCommandTests.store(),
        ])
        defer { phone.terminate() }
        let seenByPhone = try await AccessoryRoleCommandTests.waitForUpdates(phone, of: bluez.adapterAddress, count: 5)
        #expect(seenByPhone.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.05 }, "\(seenByPhone.suffix(3))")
        let phoneID = try #require(AccessoryRoleCommandTests.jsonObjects(accessory.stdout).first { $0["event"] as? String == "update" }?["accessory"] as? String)
        let updates = try await AccessoryRoleCommandTests.waitForUpdates(accessory, of: phoneID, count: 5)
        #expect(updates.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.05 }, "\(updates.suffix(3))")
        // The phone's writes came as WriteValue calls, our notifications went through the AcquireNotify socket.
        #expect(!bluez.lines("BLUEZ-SERVER-WRITE").isEmpty && !bluez.lines("BLUEZ-SERVER-NOTIFY").isEmpty)
        #expect(bluez.lines("BLUEZ-SERVER-ACQUIRE-NOTIFY").count == 1)
        // One phone at a time: no advertising while it is connected.
        #expect(bluez.lines("BLUEZ-UNREGISTER-ADVERTISEMENT").count == 1, "\(bluez.process.stdout)")

        phone.signal(SIGINT)
        #expect(try await phone.waitForExit(timeout: .seconds(30)) == 0, "\(phone.stderr)")
        for _ in 0..<100 where !accessory.stdout.contains("\"state\":\"stopped\"") { try await Task.sleep(for: .milliseconds(100)) }
        let states = AccessoryRoleCommandTests.jsonObjects(accessory.stdout).filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
        #expect(Array(states.prefix(5)) == ["idle", "initializing", "configuring", "starting", "ranging"] && states.suffix(2) == ["idle", "stopped"], "\(states)")
        // The phone left: advertising again for the next one.
        for _ in 0..<100 where bluez.lines("BLUEZ-REGISTER-ADVERTISEMENT").count < 2 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(bluez.lines("BLUEZ-REGISTER-ADVERTISEMENT").count == 2)
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0, "\(accessory.stderr)")
    }

    @Test("accessory --hci bluez with two Bumble phones: one at a time; the second finds the accessory once the first left, and ranges")
    func accessoryPhones() async throws {
        let (server, uwbsPort) = try await AccessoryRoleCommandTests.uwbs()
        defer { server.terminate() }
        // The phones look for Nordic UART: what BlueZ advertises with the defaults (one service fits).
        let air = try await BumblePeerProcess(["--accessories", "0", "--phones", "2", "--phone-script", "ni-leave,ni", "--phone-hold", "1.5",
                                               "--phone-service", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"])
        defer { air.stop() }
        let bluez = try await BlueZMockProcess(hciPort: air.port)
        defer { bluez.stop() }
        let accessory = try ChildProcess(PackagePaths.nearby, [
            "accessory", "--hci", "bluez", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json", "--store", AccessoryRoleCommandTests.store(),
            "--log-level", "info", "--max-phones", "4",
        ], environment: bluez.environment)
        defer { accessory.terminate() }
        try await air.process.waitForOutput("PHONE-STARTED", timeout: .seconds(90))
        try await air.process.waitForOutput("PHONE-DISCONNECTED reason=0x13 phone=1", timeout: .seconds(60))
        for _ in 0..<900 where air.lines("PHONE-STARTED").count < 2 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(air.lines("PHONE-STARTED").count == 2, "the second phone was served after the first left: \(air.process.stdout)")
        let first = try #require(air.lines("PHONE-ACD").first)
        #expect(first.contains("length=38"), "0x01 with the 1.1 layout: \(first)")
        // The second phone connected only once the first had left (no advertising in between).
        let lines = air.process.stdout.split(separator: "\n").map(String.init)
        let left = try #require(lines.firstIndex { $0.hasPrefix("PHONE-DISCONNECTED") && $0.hasSuffix("phone=1") })
        let second = try #require(lines.firstIndex { $0.hasPrefix("PHONE-CONNECTED") && $0.hasSuffix("phone=2") })
        #expect(left < second, "\(lines)")
        #expect(bluez.lines("BLUEZ-REGISTER-ADVERTISEMENT").count >= 2 && bluez.lines("BLUEZ-UNREGISTER-ADVERTISEMENT").count >= 2)
        #expect(accessory.stderr.contains("serves 1 phone at a time (--max-phones 4)"), "\(accessory.stderr)")
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0, "\(accessory.stderr)")
    }

    @Test("accessory --hci bluez with Apple's sample app (the apple-sample phone): found by Nordic UART, two cycles, a fast reconnect and a write before subscribing answered once it subscribes")
    func accessoryAppleSample() async throws {
        // --auto-peers: the virtual kit plays the phone's UWB side.
        let (server, uwbsPort) = try await AccessoryRoleCommandTests.uwbs(["--auto-peers"])
        defer { server.terminate() }
        let air = try await BumblePeerProcess(["--accessories", "0", "--phones", "1", "--phone-script", "apple-sample", "--phone-hold", "1"])
        defer { air.stop() }
        let bluez = try await BlueZMockProcess(hciPort: air.port)
        defer { bluez.stop() }
        let accessory = try ChildProcess(PackagePaths.nearby, [
            "accessory", "--hci", "bluez", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json", "--store", AccessoryRoleCommandTests.store(),
            "--log-level", "info",
        ], environment: bluez.environment)
        defer { accessory.terminate() }
        try await air.process.waitForOutput("PHONE-CYCLE-DONE cycle=3", timeout: .seconds(240))
        let seen = air.lines("PHONE-SEEN")
        #expect(seen.count == 2 && seen.allSatisfy { $0.contains("service=6E400001-B5A3-F393-E0A9-E50E24DCCA9E") }, "\(seen)")
        #expect(air.lines("PHONE-STOPPED").count == 1, "the timeout retry: 0x0C answered 0x03, then a fresh 0x01")
        #expect(air.lines("PHONE-RECONNECTING").count == 1 && air.lines("PHONE-EARLY-WRITE accepted").count == 1)
        #expect(air.lines("PHONE-ACD length=38").contains { $0.contains("after-early-write") }, "\(air.process.stdout)")
        #expect(air.lines("PHONE-STARTED").count == 3 && air.lines("PHONE-NO-").isEmpty && air.lines("PHONE-ERROR").isEmpty,
                "\(air.process.stdout)")
        #expect(accessory.stderr.contains("before subscribing to TX: the answer waits for its subscription"), "\(accessory.stderr)")
        let phoneID = try #require(AccessoryRoleCommandTests.jsonObjects(accessory.stdout).first { $0["event"] as? String == "update" }?["accessory"] as? String)
        _ = try await AccessoryRoleCommandTests.waitForUpdates(accessory, of: phoneID, count: 3)
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0, "\(accessory.stderr)")
    }

    @Test("doctor says which backend and why; BlueZ's adapter powered off blocks; errors of nearby scan through BlueZ name their fix")
    func doctorAndErrors() async throws {
        let (peer, bluez) = try await Self.start()
        defer {
            bluez.stop()
            peer.stop()
        }
        let doctor = try await Self.nearby(["doctor", "--json"], bluez)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any], "\(doctor.stdout)")
        #expect(report["hci"] as? String == "bluez:hci0", "\(report)")
        let findings = report["findings"] as? [[String: Any]] ?? []
        let backend = try #require(findings.first { $0["check"] as? String == "backend" })
        #expect((backend["message"] as? String ?? "").contains("bluetoothd owns hci0 and it is powered: sharing it through BlueZ"), "\(backend)")
        let daemon = try #require(findings.first { $0["check"] as? String == "bluetoothd" })
        #expect(daemon["status"] as? String == "ok" && (daemon["message"] as? String ?? "").contains("BlueZ 5.66"))
        #expect(findings.contains { $0["check"] as? String == "accessory" && $0["status"] as? String == "ok" })

        let (offPeer, off) = try await Self.start(bluez: ["--powered-off"])
        defer {
            off.stop()
            offPeer.stop()
        }
        let blocked = try await Self.nearby(["doctor", "--hci", "bluez"], off)
        #expect(blocked.status == 1 && blocked.stdout.contains("the adapter hci0 is powered off in BlueZ: `bluetoothctl power on`"), "\(blocked.stdout)")
        // Automatically: the adapter is free for the own host, so hci:0 is the choice.
        let automatic = try await Self.nearby(["doctor", "--json"], off)
        #expect(automatic.stdout.contains("\"hci\":\"hci:0\"") && automatic.stdout.contains("hci0 is powered off in BlueZ"), "\(automatic.stdout)")
        let scan = try await Self.nearby(["scan", "--hci", "bluez", "--duration", "1"], off)
        #expect(scan.status == 1 && scan.stderr.contains("the adapter hci0 is powered off in BlueZ"), "\(scan.stderr)")

        // A bus where bluetoothd is not running.
        let bus = try await PrivateDBus()
        defer { bus.stop() }
        let none = try await ChildProcess.run(PackagePaths.nearby, ["scan", "--hci", "bluez", "--duration", "1"], environment: bus.environment)
        #expect(none.status == 1 && none.stderr.contains("bluetoothd is not running"), "\(none.stderr)")
        #expect(none.stderr.contains("`sudo systemctl start bluetooth`"))
    }
}
