import Foundation
import NearbySupport
import NearbyTestSupport
import Testing

/// `nearby scan`, `nearby setup` and `nearby accessories` end to end: the built executable,
/// Bumble as the controller and accessory, stores in temporary directories.
@Suite("nearby scan / setup / accessories", .serialized)
struct AccessoryCommandTests {
    /// A fresh directory under /tmp.
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/nearby-cli-accessories-XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func nearby(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(90))
        async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, arguments, environment: environment, timeout: timeout)
    }

    static func jsonObjects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test("scan --json: one object per report with exactly the documented keys and values; stdout is only JSON")
    func scanJSON() async throws {
        let peer = try await BumblePeerProcess([
            "--name", "Tag-K", "--advertise-uuid", "FE9A", "--manufacturer-data", "004C:0A0B0C", "--service-data", "FE9A:0102",
        ])
        defer { peer.stop() }
        let run = try await Self.nearby(["scan", "--hci", peer.hciSpec, "--duration", "2", "--json", "--service", "FE9A",
                                         "--name", "tag", "--ignore-case"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try Self.jsonObjects(run.stdout)
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
        #expect(run.stderr.contains("scanning on \(peer.hciSpec) for service FE9A, name contains \"tag\" (any case) for 2 s"))
    }

    @Test("scan: null manufacturer, human lines, --range immediate filters by RSSI, bad flags exit 64")
    func scanFilters() async throws {
        let peer = try await BumblePeerProcess(["--rssi", "-72"])
        defer { peer.stop() }
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-scan-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let json = try await Self.nearby(["scan", "--hci", peer.hciSpec, "--duration", "2", "--json", "--hci-log", capture])
        let first = try #require(try Self.jsonObjects(json.stdout).first { $0["address"] as? String == "F0:F1:F2:F3:F4:F5" })
        // --hci-log: the scan's HCI exchange, the advertising reports among it, dissected by tshark.
        let reports = try await Tshark.fields(capture, ["frame.number"], filter: "bthci_evt.le_meta_subevent")
        #expect(!reports.isEmpty, "advertising reports in the capture")
        #expect(first["manufacturer"] is NSNull && first["rssi"] as? Int == -72)
        #expect(first["service_uuids"] as? [String] == ["6E400001-B5A3-F393-E0A9-E50E24DCCA9E"])
        #expect(first["service_data"] as? [String: String] == [:])

        let human = try await Self.nearby(["scan", "--hci", peer.hciSpec, "--duration", "2", "--service", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"])
        #expect(human.status == 0)
        #expect(human.stdout.split(separator: "\n").first
            == "F0:F1:F2:F3:F4:F5 (random)   -72 dBm   \"nb-peer\"  services 6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(human.stdout.split(separator: "\n").count == 1, "one line while nothing changes: \(human.stdout)")

        let near = try await Self.nearby(["scan", "--hci", peer.hciSpec, "--duration", "2", "--json", "--range", "immediate",
                                          "--service", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"])
        #expect(near.status == 0 && near.stdout.isEmpty, "-72 dBm is not immediate: \(near.stdout)")

        let bad = try await Self.nearby(["scan", "--hci", peer.hciSpec, "--manufacturer-data", "0a0b/ff"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("manufacturerDataMask has 1 byte(s) but manufacturerDataBlob has 2"))
        // A scan filters by name (and range) alone; a setup descriptor needs a service or company.
        let byName = try await Self.nearby(["scan", "--hci", peer.hciSpec, "--duration", "2", "--json", "--name", "PEER", "--ignore-case"])
        #expect(byName.status == 0 && byName.stderr.contains("for names containing \"PEER\" (any case)"), "\(byName.stderr)")
        #expect(try Self.jsonObjects(byName.stdout).contains { $0["name"] as? String == "nb-peer" }, "\(byName.stdout)")
        let otherName = try await Self.nearby(["scan", "--hci", peer.hciSpec, "--duration", "2", "--json", "--name", "PEER"])
        #expect(otherName.status == 0 && otherName.stdout.isEmpty, "case matters without --ignore-case: \(otherName.stdout)")
        let noKey = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--name-contains", "tag", "--pick", "first", "--timeout", "1"])
        #expect(noKey.status == 64 && noKey.stderr.contains("(give --service or --company)"), "\(noKey.stderr)")
    }

    @Test("setup --pick first stores the accessory; accessories list --json shows it; rename and forget")
    func setupPickFirst() async throws {
        let peer = try await BumblePeerProcess()
        defer { peer.stop() }
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        let run = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--name", "Kitchen tag",
                                         "--store", store, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let printed = try #require(try Self.jsonObjects(run.stdout).first)
        #expect(printed["display_name"] as? String == "Kitchen tag")
        #expect(run.stderr.contains("found 1. Kitchen tag  \"nb-peer\"  -50 dBm  F0:F1:F2:F3:F4:F5 (random)"), "\(run.stderr)")
        #expect(run.stderr.contains("data channel Nordic UART (6E400001-B5A3-F393-E0A9-E50E24DCCA9E), stored in \(store)"))

        let list = try await Self.nearby(["accessories", "list", "--json", "--store", store])
        #expect(list.status == 0)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(records.count == 1)
        let record = records[0]
        let id = try #require(record["id"] as? String)
        #expect(record["address"] as? String == "F0:F1:F2:F3:F4:F5" && record["address_type"] as? String == "random")
        #expect(record["advertised_name"] as? String == "nb-peer" && record["origin"] as? String == "setup")
        #expect((record["data_channel"] as? [String: String])?["name"] == "Nordic UART")
        #expect(record["bonding"] as? String == "none")

        let table = try await Self.nearby(["accessories", "--store", store])
        #expect(table.stdout.hasPrefix("ID        NAME         ADVERTISED  ADDRESS            TYPE    DATA CHANNEL  BONDING  LAST SEEN (UTC)\n\(id)  Kitchen tag  nb-peer     F0:F1:F2:F3:F4:F5  random  Nordic UART   none     "), "\(table.stdout)")

        // NEARBY_STORE works like --store.
        let renamed = try await Self.nearby(["accessories", "rename", "kitchen", "Hall tag"], environment: ["NEARBY_STORE": store])
        #expect(renamed.status == 0 && renamed.stdout == "renamed \(id)  Hall tag  \"nb-peer\"  F0:F1:F2:F3:F4:F5 (random)\n")
        // Setting it up again keeps its id and the user's name; --name replaces the name.
        let again = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--store", store, "--json"])
        let kept = try #require(try Self.jsonObjects(again.stdout).first, "\(again.stderr)")
        #expect(kept["id"] as? String == id && kept["display_name"] as? String == "Hall tag", "\(kept)")
        let named = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--name", "Porch tag",
                                           "--store", store, "--json"])
        let replaced = try #require(try Self.jsonObjects(named.stdout).first, "\(named.stderr)")
        #expect(replaced["id"] as? String == id && replaced["display_name"] as? String == "Porch tag", "\(replaced)")
        let forgot = try await Self.nearby(["accessories", "forget", "F0:F1:F2:F3:F4:F5", "--store", store])
        #expect(forgot.status == 0 && forgot.stdout.hasPrefix("forgot \(id)"))
        let missing = try await Self.nearby(["accessories", "forget", id, "--store", store])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: no accessory matches \"\(id)\": the store is empty (set one up with nearby setup)\n")
    }

    @Test("setup against an accessory without a known data channel fails clearly and stores nothing")
    func setupWithoutDataChannel() async throws {
        let peer = try await BumblePeerProcess(["--services", "test", "--advertise-uuid", "FE9A"])
        defer { peer.stop() }
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        let run = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--service", "FE9A", "--pick", "first", "--timeout", "30", "--store", store])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("error: F0:F1:F2:F3:F4:F5 offers no known data channel: its services are "), "\(run.stderr)")
        #expect(run.stderr.contains("6E62746B-0001-4A50-9D3F-6E6561726279"))
        #expect(run.stderr.contains("nothing was stored"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("setup without a pick and without a terminal reads the choice from standard input; nothing found times out clearly")
    func setupTimeout() async throws {
        let peer = try await BumblePeerProcess()
        defer { peer.stop() }
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let none = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--company", "0x0059", "--pick", "first", "--timeout", "2",
                                          "--store", directory + "/a.json"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("error: no accessory matching company 0x0059 was found in 2 s"))
        // Standard input is /dev/null: the list is printed, nobody picks.
        let unpicked = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--timeout", "3", "--store", directory + "/a.json"])
        #expect(unpicked.status == 1)
        #expect(unpicked.stderr.contains("  1. nb-peer  -50 dBm  F0:F1:F2:F3:F4:F5 (random)"), "\(unpicked.stderr)")
        #expect(unpicked.stderr.contains("error: no accessory was picked in 3 s"))
    }

    @Test("on a terminal (a pty from script(1)): the list is redrawn in place, Down + Enter picks the second, the terminal is restored")
    func interactivePicker() async throws {
        let peer = try await BumblePeerProcess(["--accessories", "2"])
        defer { peer.stop() }
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        let command = "env -u NO_COLOR TERM=xterm \(PackagePaths.nearby.path) setup --hci \(peer.hciSpec) --timeout 40 --store \(store)"
        // Keys once the list shows both accessories (script -f flushes the screen to the typescript
        // file as it is drawn; at most 30 s): Down, then Enter. Both addresses, not just the
        // second name: either accessory may be heard first.
        let typescript = directory + "/typescript"
        let keys = "i=0; until { grep -q 'F4:F5 (random)' \"$1\" && grep -q 'F4:F6 (random)' \"$1\"; } 2>/dev/null || [ $i -ge 150 ]; "
            + "do sleep 0.2; i=$((i+1)); done; "
            + "sleep 0.5; printf '\\033[B'; sleep 1; printf '\\r'; sleep 8"
        let run = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "(\(keys)) | script -qfec \"$0\" \"$1\"", command, typescript],
            environment: ["TERM": "xterm"], timeout: .seconds(90))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let screen = run.stdout
        // The rows are in the order the accessories were first heard (either may come first).
        let rows = [("nb-peer", "F0:F1:F2:F3:F4:F5"), ("nb-peer2", "F0:F1:F2:F3:F4:F6")]
        func row(_ number: Int, _ accessory: (String, String)) -> String { "\(number). \(accessory.0)  -50 dBm  \(accessory.1) (random)" }
        let firstHeard = try #require(rows.first { screen.contains("\u{1B}[7m> " + row(1, $0) + "\u{1B}[0m") }, "row 1 highlighted first: \(screen)")
        let second = try #require(rows.first { $0 != firstHeard })
        // Down: the two lines are redrawn in place (cursor up 2, clear), row 2 highlighted.
        #expect(screen.contains("\u{1B}[2F\u{1B}[J  " + row(1, firstHeard) + "\r\n\u{1B}[7m> " + row(2, second) + "\u{1B}[0m"), "\(screen)")
        #expect(screen.contains("\u{1B}[?25hpicked \(second.0)"), "the cursor is shown again before the result")
        let list = try await Self.nearby(["accessories", "list", "--json", "--store", store])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(records.map { $0["address"] as? String } == [second.1])
    }

    @Test("8 concurrent nearby processes adding accessories: every record survives")
    func concurrentProcesses() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/state/accessories.json"
        let runs = try await withThrowingTaskGroup(of: Int32.self) { group in
            // Started directly, not through ChildProcess.run (which runs a few at a time): all 8 at once.
            let children = try (0..<8).map { index in
                try ChildProcess(PackagePaths.nearby, ["accessories", "migrate", "--address", String(format: "F0:00:00:00:00:%02X", index),
                                                       "--name", "T\(index)", "--store", store])
            }
            for child in children {
                group.addTask { try await child.waitForExit(timeout: .seconds(90)) }
            }
            return try await group.reduce(into: [Int32]()) { $0.append($1) }
        }
        #expect(runs == Array(repeating: 0, count: 8))
        let list = try await Self.nearby(["accessories", "list", "--json", "--store", store])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(Set(records.compactMap { $0["display_name"] as? String }) == Set((0..<8).map { "T\($0)" }))
        var info = stat()
        stat(store, &info)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test("a failing write (file size limit) leaves the old store intact and says why")
    func failedWriteKeepsOldFile() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        #expect(try await Self.nearby(["accessories", "migrate", "--address", "F0:00:00:00:00:01", "--store", store]).status == 0)
        let before = try #require(try AtomicFile.read(store))
        // RLIMIT_FSIZE 0: every write to a regular file fails with EFBIG (SIGXFSZ ignored).
        let limited = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -f 0; trap '' XFSZ; exec \"$0\" \"$@\"", PackagePaths.nearby.path,
             "accessories", "migrate", "--address", "F0:00:00:00:00:02", "--store", store])
        #expect(limited.status == 1)
        #expect(limited.stderr == "error: accessory store: cannot write \(store): File too large\n")
        #expect(try AtomicFile.read(store) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(leftovers == ["accessories.json", "accessories.json.lock"], "no temporary file left behind")
    }

    @Test("a corrupt store: the command fails, the file is kept aside, the next command starts fresh")
    func corruptStore() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        try AtomicFile.write("not json at all", to: store)
        let run = try await Self.nearby(["accessories", "list", "--store", store])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: the accessory store \(store) is damaged (not valid JSON"), "\(run.stderr)")
        let copies = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("accessories.json.corrupt-") }
        #expect(copies.count == 1)
        #expect(run.stderr.contains("It was moved aside to \(directory)/\(copies[0])"))
        #expect(try AtomicFile.read(directory + "/" + copies[0]) == Array("not json at all".utf8))
        let next = try await Self.nearby(["accessories", "list", "--store", store])
        #expect(next.status == 0 && next.stdout.hasPrefix("no accessories in \(store)"))
    }

    @Test("migrate --bluez from a fixture; an unreadable bond directory (run as nobody) says what to do")
    func migrateBlueZ() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bluez = directory + "/bluetooth"
        try AtomicFile.write("[General]\nName=Kitchen Tag\nAddressType=static\nSupportedTechnologies=LE;\n\n[LongTermKey]\nKey=00\n",
                             to: bluez + "/C0:11:22:33:44:55/F0:F1:F2:F3:F4:F5/info")
        let store = directory + "/accessories.json"
        let run = try await Self.nearby(["accessories", "migrate", "--bluez", "--bluez-dir", bluez, "--store", store])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("  Kitchen Tag  F0:F1:F2:F3:F4:F5 (random) (bonding bonded)\n"), "\(run.stdout)")

        // The real permission error. As root (CI): BlueZ's directory is 0700 root and nearby runs
        // as nobody. As a user: the directory is 0000 (its owner cannot read it either).
        let arguments = ["accessories", "migrate", "--bluez", "--bluez-dir", bluez, "--store", directory + "/other.json"]
        let denied: (status: Int32, stdout: String, stderr: String)
        if geteuid() == 0 {
            chmod(directory, 0o755)
            chmod(bluez, 0o700)
            denied = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", PackagePaths.nearby.path] + arguments)
        } else {
            chmod(bluez, 0)
            defer { chmod(bluez, 0o700) }
            denied = try await Self.nearby(arguments)
        }
        #expect(denied.status == 1)
        #expect(denied.stderr.hasPrefix("error: cannot read \(bluez): permission denied (BlueZ keeps its bond directory readable by root only)"),
                "\(denied.stderr)")
        #expect(denied.stderr.contains("nearby accessories migrate --address AA:BB:CC:DD:EE:FF"))
    }
}
