import ArgumentParser
import NearbyRuntime

/// `nearby doctor`: checks what ranging with hardware needs and says how to fix what is missing.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check USB access to UWB kits, serial ports, which Bluetooth backend is used and why, BlueZ or the HCI user channel, and the config file.",
        discussion: """
            Prints one finding per line (ok, info, warning, error) with a fix for each problem. Exits 0 if \
            nothing blocks ranging, 1 if something does (an error finding). The backend finding says whether \
            nearby shares the adapter through BlueZ (bluetoothd owns a powered adapter) or uses its own host \
            (hci:N, tcp:, serial:), and why. Changes nothing: the HCI user channel of the selected adapter is \
            opened and closed at once to see whether it can be; bluetoothd is only asked for its objects.
            """)

    @Option(
        name: .customLong("hci"),
        help: ArgumentHelp("The backend to check: bluez[:hciN], hci:N, tcp:HOST:PORT or serial:PATH (default: the config file's transports.hci, else the automatic choice).", valueName: "spec"))
    var hci: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("Configuration file to check (default: $XDG_CONFIG_HOME/nearby/config.toml or ~/.config/nearby/config.toml, if present).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Print one JSON object {\"findings\":[...],\"blocking\":N,\"warnings\":N}.")
    var json = false

    func run() async throws {
        let report = await DoctorChecks.all(hci: hci, config: config)
        print(json ? report.json : report.lines.joined(separator: "\n"))
        if report.blocking > 0 { throw NearbyExit.failure }
    }
}
