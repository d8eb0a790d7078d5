import ArgumentParser
import Foundation
import NearbyConfig
import NearbyBase

/// `nearby doctor`: checks what ranging with hardware needs and says how to fix what is missing.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check USB access to UWB kits, serial ports, kernel Bluetooth, the HCI user channel, bluetoothd and the config file.",
        discussion: """
            Prints one finding per line (ok, info, warning, error) with a fix for each problem. Exits 0 if \
            nothing blocks ranging, 1 if something does (an error finding). Changes nothing: the HCI user \
            channel of the selected adapter is opened and closed at once to see whether it can be.
            """)

    @Option(
        name: .customLong("hci"),
        help: ArgumentHelp("The controller to check: hci:N, tcp:HOST:PORT or serial:PATH (default: the config file's transports.hci, else hci:0).", valueName: "spec"))
    var hci: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("Configuration file to check (default: $XDG_CONFIG_HOME/nearby/config.toml or ~/.config/nearby/config.toml, if present).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Print one JSON object {\"findings\":[...],\"blocking\":N,\"warnings\":N}.")
    var json = false

    func run() async throws {
        let (configFindings, configuration) = DoctorChecks.config(path: config)
        var findings = configFindings
        findings += DoctorChecks.usb()
        findings += DoctorChecks.serialPorts()
        let spec = Precedence.resolve(flag: hci, config: configuration.transports.hci, default: DoctorChecks.defaultHCI)
        findings += await DoctorChecks.bluetooth(spec: spec)
        let blocking = findings.filter { $0.status == .error }.count
        let warnings = findings.filter { $0.status == .warning }.count
        if json {
            let items = findings.map { finding in
                JSONObject([
                    ("check", .string(finding.check)), ("status", .string(finding.status.rawValue)),
                    ("message", .string(finding.message)), ("fix", .string(finding.fix)),
                ]).text
            }
            let report = JSONObject([
                ("hci", .string(spec)), ("findings", .raw("[" + items.joined(separator: ",") + "]")),
                ("blocking", .integer(blocking)), ("warnings", .integer(warnings)),
            ])
            print(report.text)
        } else {
            for finding in findings {
                print(finding.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                    + finding.check.padding(toLength: 11, withPad: " ", startingAt: 0) + " " + finding.message)
                if let fix = finding.fix { print(String(repeating: " ", count: 21) + "fix: " + fix) }
            }
            print()
            if blocking == 0 {
                print("nothing blocks ranging" + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : ""))
            } else {
                print("\(blocking) problem\(blocking == 1 ? "" : "s") block\(blocking == 1 ? "s" : "") ranging" + (warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : ""))
            }
        }
        if blocking > 0 { throw NearbyExit.failure }
    }
}
