import ArgumentParser
import LowEnergy
import UWBDevice
import NearbyTerminal

/// `--uci-log FILE`: a pcapng capture of every UCI packet (commands that open a dev kit).
struct UCILogOptions: ParsableArguments {
    @Option(
        name: .customLong("uci-log"),
        help: ArgumentHelp(
            "Write every UCI packet to FILE: pcapng, link type FiRa UCI (299), with directions; Wireshark 4.2+ dissects it. Mode 0600, rotated at --uci-log-max-mb (3 old files kept).",
            valueName: "file"))
    var path: String?

    @Option(name: .customLong("uci-log-max-mb"), help: ArgumentHelp("Size of the --uci-log file before it is rotated, MiB.", valueName: "MiB"))
    var maximumMiB = 64

    func validate() throws {
        guard maximumMiB >= 1 else { throw ValidationError("--uci-log-max-mb must be at least 1") }
    }

    /// Creates the capture, or exits 1 saying why it cannot; `nil` without `--uci-log`.
    func open(interface: String) throws -> UCICaptureLog? {
        try CaptureReport.uci(path, interface: interface, maximumMiB: maximumMiB)
    }
}

/// `--hci-log FILE`: a btsnoop capture of every HCI packet (commands that open a controller).
struct HCILogOptions: ParsableArguments {
    @Option(
        name: .customLong("hci-log"),
        help: ArgumentHelp(
            "Write every HCI packet to FILE: btsnoop (as Android's snoop log and btmon), pairing keys zeroed; Wireshark dissects HCI, L2CAP, ATT, SMP. Mode 0600, rotated at --hci-log-max-mb (3 old files kept).",
            valueName: "file"))
    var path: String?

    @Option(name: .customLong("hci-log-max-mb"), help: ArgumentHelp("Size of the --hci-log file before it is rotated, MiB.", valueName: "MiB"))
    var maximumMiB = 64

    func validate() throws {
        guard maximumMiB >= 1 else { throw ValidationError("--hci-log-max-mb must be at least 1") }
    }

    /// Creates the capture, or exits 1 saying why it cannot; `nil` without `--hci-log`.
    func open() throws -> HCICaptureLog? {
        try CaptureReport.hci(path, maximumMiB: maximumMiB)
    }
}

/// The `--uci-log` and `--hci-log` captures of a command that opens both a dev kit and a
/// controller; `finish()` reports packets a capture could not write.
struct CaptureFiles {
    /// The UCI capture, `nil` without `--uci-log`.
    let uci: UCICaptureLog?
    /// The HCI capture, `nil` without `--hci-log`.
    let hci: HCICaptureLog?

    /// Creates both captures, or throws (exit 1) saying which one cannot be written and why.
    /// - Parameter interface: the kit's name written into the pcapng interface block.
    init(uci: UCILogOptions, hci: HCILogOptions, interface: String) throws {
        self.uci = try uci.open(interface: interface)
        self.hci = try hci.open()
    }

    /// Closes both captures, saying on stderr if packets were missing from either.
    func finish() {
        CaptureReport.finish("--uci-log", uci?.file)
        CaptureReport.finish("--hci-log", hci?.file)
    }
}
