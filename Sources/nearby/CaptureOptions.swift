import ArgumentParser
import LowEnergy
import NearbySupport
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
        guard let path else { return nil }
        do {
            return try UCICaptureLog(
                path: path, interface: interface, limits: CaptureLimits(maximumBytes: maximumMiB << 20),
                onFailure: { CaptureReport.failed("--uci-log", $0) })
        } catch {
            Console.error("error: --uci-log: \(error)")
            throw ExitCode(1)
        }
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
        guard let path else { return nil }
        do {
            return try HCICaptureLog(
                path: path, limits: CaptureLimits(maximumBytes: maximumMiB << 20), onFailure: { CaptureReport.failed("--hci-log", $0) })
        } catch {
            Console.error("error: --hci-log: \(error)")
            throw ExitCode(1)
        }
    }
}

/// What the CLI says about a capture that could not be written.
enum CaptureReport {
    /// The first failed write: the run goes on without the missing packets.
    static func failed(_ flag: String, _ error: FileSystemError) {
        Console.error("warning: \(flag): \(error); packets are not recorded until writing works again (the run goes on)")
    }

    /// At the end: how many packets are missing from the file, if any.
    static func finish(_ flag: String, _ file: CaptureFile?) {
        guard let file else { return }
        file.close()
        let statistics = file.statistics
        guard statistics.recordsLost > 0 else { return }
        Console.error("warning: \(flag): \(statistics.recordsLost) packet(s) not recorded in \(file.path)")
    }
}
