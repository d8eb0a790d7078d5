import ArgumentParser
import Logging
import NearbyTerminal
import Simulation
import UCI
import UWBDevice

/// `nearby uwb info`: resets the UWB subsystem and prints what it is and what it can do.
struct UWBInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Reset the UWB subsystem and print its UCI / MAC / PHY versions and capabilities.",
        discussion: """
            Sends CORE_DEVICE_RESET, CORE_GET_DEVICE_INFO and CORE_GET_CAPS_INFO and prints the \
            answers readably (capabilities decoded with the numbering of the reported UCI version). \
            With --json, one JSON object.

            Examples:
              nearby uwb info --device usb:1915:520f
              nearby uwb info --device tcp:127.0.0.1:7000 --json
            """
    )

    @Option(name: .long, help: "The UWB subsystem: \(UWBDeviceTarget.forms).")
    var device: String

    @Flag(name: .long, help: "Print one JSON object instead of readable text.")
    var json = false

    @Flag(name: .long, help: "Log every UCI command and response on standard error (--log-level debug).")
    var verbose = false

    @OptionGroup var logging: LogOptions
    @OptionGroup var uciLog: UCILogOptions

    func validate() throws {
        _ = try UWBClientSetup.spec(device)
    }

    func run() async throws {
        let spec = try UWBClientSetup.spec(device)
        let capture = try uciLog.open(interface: spec.description)
        defer { CaptureReport.finish("--uci-log", capture?.file) }
        let fields = try await NearbyExit.onError {
            try await UWBClientSetup.client(for: spec, verbose: verbose, logging: logging, capture: capture).report(device: spec.description)
        }
        print(json ? UCIField.json(fields) : UCIField.text(fields))
    }
}

/// What `nearby uwb info` and `nearby uwb range` share: device specs, the client, logging.
enum UWBClientSetup {
    /// Parses `--device` (`sim` included).
    static func spec(_ text: String) throws -> UWBDeviceTarget {
        do {
            return try UWBDeviceTarget(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// A client for `spec`, logging to standard error at `--log-level` (default warnings and
    /// worse; everything from debug with `verbose`).
    /// - Parameter capture: where every UCI packet is recorded (`--uci-log`).
    static func client(
        for spec: UWBDeviceTarget, verbose: Bool, logging: LogOptions, configuration: UCIClientConfiguration = .init(),
        capture: UCICaptureLog? = nil
    ) throws -> UCIClient {
        logging.bootstrap(verbose: verbose)
        let logger = Logger(label: "nearby.uwb")
        let transport = transport(for: spec, logger: logger)
        return UCIClient(transport: capture.map { transport.capturing(to: $0) } ?? transport, configuration: configuration, logger: logger)
    }

    /// The transport for `spec`: `sim` is an in-process virtual UWBS of the shared simulated
    /// world (the `demo` scenario, a mirrored peer for every destination address).
    static func transport(for spec: UWBDeviceTarget, logger: Logger) -> any UCITransport {
        spec.makeTransport(world: .shared, logger: logger)
    }
}
