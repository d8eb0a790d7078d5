import Foundation
import NearbyTestSupport
import Testing

/// `nearby doctor` on the machine the tests run on: the findings must match what the machine has
/// (the CI containers have no USB kit and no kernel Bluetooth; the expectations follow the facts).
@Suite struct DoctorCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-doctor-\(UUID().uuidString)")

    func doctor(_ arguments: [String]) async throws -> (status: Int32, report: [String: Any], stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let run = try await ChildProcess.run(
            PackagePaths.nearby, ["doctor", "--json"] + arguments, environment: ["XDG_CONFIG_HOME": directory.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\n\(run.stderr)")
        return (run.status, report, run.stdout, run.stderr)
    }

    func findings(_ report: [String: Any]) throws -> [[String: Any]] {
        try #require(report["findings"] as? [[String: Any]])
    }

    /// Whether this kernel has Bluetooth sockets.
    var kernelBluetooth: Bool {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1)
        let present = fd >= 0 || errno != EAFNOSUPPORT
        if fd >= 0 { close(fd) }
        return present
    }

    /// Whether a known kit (1915:520f, 0403:6015) is on USB, from sysfs.
    var kitAttached: Bool {
        let root = "/sys/bus/usb/devices"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.contains { entry in
            let vendor = (try? String(contentsOfFile: "\(root)/\(entry)/idVendor", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            let product = (try? String(contentsOfFile: "\(root)/\(entry)/idProduct", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            return (vendor == "1915" && product == "520f") || (vendor == "0403" && product == "6015")
        }
    }

    @Test func reportMatchesThisMachineWithAFixForEveryProblem() async throws {
        let run = try await doctor([])
        #expect(Set(run.report.keys) == ["hci", "findings", "blocking", "warnings"])
        #expect(run.report["hci"] as? String == "hci:0")
        let findings = try findings(run.report)
        for finding in findings {
            #expect(Set(finding.keys) == ["check", "status", "message", "fix"])
            #expect(["ok", "info", "warning", "error"].contains(finding["status"] as? String ?? ""))
            if ["warning", "error"].contains(finding["status"] as? String ?? "") {
                #expect((finding["fix"] as? String)?.isEmpty == false, "no fix for \(finding)")
            }
        }
        let byCheck = Dictionary(grouping: findings) { $0["check"] as? String ?? "" }
        #expect(byCheck["config"]?.first?["status"] as? String == "ok")
        let configMessage = byCheck["config"]?.first?["message"] as? String ?? ""
        #expect(configMessage.hasPrefix("no configuration file at \(directory.path)/nearby/config.toml"))
        if !kitAttached {
            let usb = try #require(byCheck["usb"]?.first)
            #expect(usb["status"] as? String == "warning")
            let usbMessage = usb["message"] as? String ?? ""
            #expect(usbMessage.hasPrefix("no UWB dev kit on USB (supported: Qorvo DWM3001CDK 1915:520f, NXP SR150 EVK 0403:6015)"))
        }
        let bluetooth = try #require(byCheck["bluetooth"]?.first)
        if !kernelBluetooth {
            #expect(bluetooth["status"] as? String == "error")
            #expect(bluetooth["message"] as? String == "no kernel Bluetooth (socket(AF_BLUETOOTH) fails: EAFNOSUPPORT)")
            let fix = bluetooth["fix"] as? String ?? ""
            #expect(fix.contains("--hci tcp:HOST:PORT or --hci serial:/dev/ttyACM0"))
            #expect(run.status == 1, "no kernel Bluetooth blocks the default controller hci:0")
            #expect((run.report["blocking"] as? Int ?? 0) >= 1)
        } else {
            #expect(bluetooth["status"] as? String == "ok")
        }
        #expect(byCheck["capability"]?.count == 1)
        #expect(byCheck["bluetoothd"]?.count == 1)
        let errors = findings.filter { $0["status"] as? String == "error" }.count
        #expect(run.report["blocking"] as? Int == errors)
        #expect(run.status == (errors > 0 ? 1 : 0))
    }

    @Test func anH4ControllerOverTCPNeedsNoKernelBluetooth() async throws {
        let run = try await doctor(["--hci", "tcp:127.0.0.1:9"])
        let findings = try findings(run.report)
        let hci = try #require(findings.first { $0["check"] as? String == "hci" })
        #expect(hci["status"] as? String == "info")
        #expect(hci["message"] as? String == "controller: H4 over TCP at 127.0.0.1:9 (not probed; nearby connects when it starts)")
        if !kernelBluetooth {
            #expect(findings.first { $0["check"] as? String == "bluetooth" }?["status"] as? String == "info")
        }
        let errors = findings.filter { $0["status"] as? String == "error" }.count
        #expect(run.status == (errors > 0 ? 1 : 0))
        if !kitAttached { #expect(run.status == 0, "\(run.stdout)") }
    }

    @Test func anInvalidConfigAndAnInvalidSpecAreBlocking() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bad.toml").path
        try "[output]\ncolor = \"rainbow\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try await doctor(["--config", config, "--hci", "hci:x"])
        #expect(run.status == 1)
        let findings = try findings(run.report)
        let configFinding = try #require(findings.first { $0["check"] as? String == "config" })
        #expect(configFinding["status"] as? String == "error")
        #expect(configFinding["message"] as? String == "\(config):2: output.color: 'rainbow' is not a colour mode; use one of auto, always, never")
        let hci = try #require(findings.first { $0["check"] as? String == "hci" })
        #expect(hci["status"] as? String == "error")
        let hciMessage = hci["message"] as? String ?? ""
        #expect(hciMessage.hasPrefix("invalid HCI transport \"hci:x\""))
    }

    @Test func textReportEndsWithAVerdict() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let run = try await ChildProcess.run(
            PackagePaths.nearby, ["doctor", "--hci", "tcp:127.0.0.1:9"], environment: ["XDG_CONFIG_HOME": directory.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ok       config      no configuration file at ") == true)
        #expect(lines.contains { $0.hasPrefix("info     hci         controller: H4 over TCP at 127.0.0.1:9") })
        if !kitAttached {
            #expect(lines.contains("                     fix: plug in a kit; without hardware use `nearby demo` or `--device sim`"))
            #expect(lines.last == "nothing blocks ranging (1 warning)")
        }
    }
}
