import Foundation
import BlueZ
import LowEnergy
import NearbyConfig
@testable import NearbyRuntime
import Testing

/// `nearby doctor`'s checks on fixtures of sysfs and /proc, its report, and the real
/// transport validators.
@Suite struct DoctorTests {
    /// A fresh directory tree under the temporary directory; `files` maps relative paths to contents.
    func tree(_ files: [String: String], directories: [String] = []) throws -> String {
        let root = NSTemporaryDirectory() + "nearby-doctor-\(UUID().uuidString)"
        for directory in directories { try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true) }
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    @Test func systemFactsFromSysfsAndProc() throws {
        let sysfs = try tree([:], directories: ["hci1", "hci0", "hci0:1", "rfkill0"])
        defer { try? FileManager.default.removeItem(atPath: sysfs) }
        #expect(DoctorChecks.listAdapters(sysfs: sysfs) == ["hci0", "hci1"])
        #expect(DoctorChecks.listAdapters(sysfs: sysfs + "/absent").isEmpty)

        let status = try tree(["status": "Name:\tnearby\nCapEff:\t0000000000001000\nCapBnd:\t000001ffffffffff\n"])
        defer { try? FileManager.default.removeItem(atPath: status) }
        #expect(DoctorChecks.effectiveCapabilities(status: status + "/status") == 0x1000)
        #expect(DoctorChecks.effectiveCapabilities(status: status + "/absent") == nil)

        let proc = try tree(["12/comm": "bash\n", "345/comm": "bluetoothd\n", "self/comm": "bluetoothd\n"])
        defer { try? FileManager.default.removeItem(atPath: proc) }
        #expect(DoctorChecks.bluetoothdRunning(proc: proc) == 345)
        let quiet = try tree(["12/comm": "bash\n"])
        defer { try? FileManager.default.removeItem(atPath: quiet) }
        #expect(DoctorChecks.bluetoothdRunning(proc: quiet) == nil)
    }

    @Test func theConfigurationFileIsCheckedWithEveryProblem() throws {
        let root = try tree(["bad.toml": "[output]\ncolor = \"rainbow\"\n", "good.toml": "[output]\njson = true\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (bad, fallback) = DoctorChecks.config(path: root + "/bad.toml")
        #expect(fallback == NearbyConfiguration())
        #expect(bad.count == 1 && bad[0].status == .error && bad[0].check == "config")
        #expect(bad[0].message == "\(root)/bad.toml:2: output.color: 'rainbow' is not a colour mode; use one of auto, always, never")
        #expect(bad[0].fix?.contains("nearby config check") == true)
        let (good, configuration) = DoctorChecks.config(path: root + "/good.toml")
        #expect(good == [DoctorFinding("config", .ok, "\(root)/good.toml is valid (0 hooks)")])
        #expect(configuration.output.json == true)
    }

    @Test func aControllerOverTCPIsNotProbedAndABadSpecBlocks() async {
        let tcp = await DoctorChecks.bluetooth(spec: "tcp:127.0.0.1:9")
        #expect(tcp.contains(DoctorFinding("hci", .info, "controller: H4 over TCP at 127.0.0.1:9 (not probed; nearby connects when it starts)")))
        #expect(tcp.contains { $0.check == "capability" } && tcp.contains { $0.check == "bluetoothd" })
        let bad = await DoctorChecks.bluetooth(spec: "hci:x")
        #expect(bad.count == 1 && bad[0].status == .error && bad[0].message.hasPrefix("invalid HCI transport \"hci:x\""))
    }

    @Test func theReportAsTextAndJSON() throws {
        let report = DoctorReport(hci: "hci:0", findings: [
            DoctorFinding("config", .ok, "no configuration file"),
            DoctorFinding("usb", .warning, "no UWB dev kit on USB", fix: "plug in a kit"),
            DoctorFinding("bluetooth", .error, "no kernel Bluetooth", fix: "use --hci tcp:HOST:PORT"),
        ])
        #expect(report.blocking == 1 && report.warnings == 1)
        #expect(report.lines == [
            "ok       config      no configuration file",
            "warning  usb         no UWB dev kit on USB",
            "                     fix: plug in a kit",
            "error    bluetooth   no kernel Bluetooth",
            "                     fix: use --hci tcp:HOST:PORT",
            "",
            "1 problem blocks ranging, 1 warning",
        ])
        let object = try #require(JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["hci"] as? String == "hci:0" && object["blocking"] as? Int == 1 && object["warnings"] as? Int == 1)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 3 && findings[0]["fix"] is NSNull && findings[2]["status"] as? String == "error")
        #expect(DoctorReport(hci: "hci:0", findings: []).lines.last == "nothing blocks ranging")
        let warned = DoctorReport(hci: "hci:0", findings: [DoctorFinding("usb", .warning, "a"), DoctorFinding("usb", .warning, "b")])
        #expect(warned.lines.last == "nothing blocks ranging (2 warnings)")
    }

    /// The automatic backend: BlueZ only when bluetoothd owns a powered adapter; otherwise hci:0,
    /// each time with the reason doctor prints.
    @Test func theAutomaticBackendFollowsWhatBluetoothdSays() {
        let powered = BlueZProbe.Adapter(name: "hci0", powered: true, blocked: false, address: "00:11:22:33:44:55", canServe: true)
        var off = powered
        off.powered = false
        let cases: [(BlueZProbe, String, String)] = [
            (.running(adapters: [off, BlueZProbe.Adapter(name: "hci1", powered: true, blocked: false, address: nil, canServe: true)], version: nil),
             "bluez:hci1", "bluetoothd owns hci1 and it is powered: sharing it through BlueZ"),
            (.running(adapters: [powered], version: BlueZVersion(major: 5, minor: 66)), "bluez:hci0", "bluetoothd owns hci0"),
            (.running(adapters: [off], version: nil), "hci:0", "hci0 is powered off in BlueZ (free for this program's own host)"),
            (.running(adapters: [], version: nil), "hci:0", "bluetoothd has no adapter"),
            (.notRunning, "hci:0", "bluetoothd is not running"),
            (.noBus(detail: "No such file or directory"), "hci:0", "no D-Bus system bus"),
            (.accessDenied(user: "pi", detail: "denied"), "hci:0", "the D-Bus policy does not let this user talk to bluetoothd"),
        ]
        for (probe, spec, reason) in cases {
            let choice = BluetoothBackends.automatic(probe)
            #expect(choice.spec.description == spec && choice.reason.contains(reason), "\(probe): \(choice)")
        }
    }

    @Test func theRealSpecParsersValidateTransports() {
        #expect(TransportValidators.specs.hci("hci:0") == nil && TransportValidators.specs.hci("tcp:127.0.0.1:5000") == nil)
        #expect(TransportValidators.specs.hci("bluez") == nil && TransportValidators.specs.hci("bluez:hci1") == nil && TransportValidators.specs.hci("auto") == nil)
        #expect(TransportValidators.specs.hci("bluez:x")?.contains("bluez:hci0") == true)
        #expect(TransportValidators.syntax.hci("bluez:hci0") == nil && TransportValidators.syntax.hci("bluez") == nil)
        #expect(TransportValidators.specs.hci("hci:x")?.contains("hci:x") == true)
        #expect(TransportValidators.specs.uwb("sim") == nil && TransportValidators.specs.uwb("usb:1915:520f") == nil)
        #expect(TransportValidators.specs.uwb("usb:zz") != nil)
    }
}
