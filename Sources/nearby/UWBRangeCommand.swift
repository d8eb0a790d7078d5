import ArgumentParser
import NearbyRuntime
import NearbyTerminal
import Simulation
import UCI
import UWBDevice

/// `nearby uwb range`: FiRa two-way ranging with explicit parameters (no BLE), printing every
/// range sample as it arrives.
struct UWBRangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "range",
        abstract: "Range with a UWB peer using explicit FiRa parameters (no BLE): live distance and angles.",
        discussion: """
            Opens a FiRa session (DS-TWR, static STS, SP3) with the given parameters, starts it, and \
            prints one line per range sample (with --json one object per sample with the keys t_s, \
            peer, distance_m, azimuth_deg, elevation_deg, fom, nlos, status). Stops after --count \
            samples or on Ctrl-C / SIGTERM, with SESSION_STOP and SESSION_DEINIT. The peer uses the same \
            session ID, channel and preamble, the opposite role and type, and the swapped addresses. \
            If the dev kit is unplugged, nearby waits for it and restores the session.

            Example (the two sides):
              nearby uwb range --device usb:1915:520f --session-id 42 --role initiator --controller --mac 0x0001 --peer 0x0002
              nearby uwb range --device tcp:127.0.0.1:7000 --session-id 42 --role responder --controlee --mac 0x0002 --peer 0x0001
            """
    )

    /// DEVICE_ROLE on the command line.
    enum Role: String, ExpressibleByArgument, CaseIterable {
        case initiator, responder
    }

    /// DEVICE_TYPE on the command line: `--controller` or `--controlee`.
    enum DeviceType: String, EnumerableFlag {
        case controller, controlee

        static func help(for value: DeviceType) -> ArgumentHelp? {
            switch value {
            case .controller: "This device controls the session."
            case .controlee: "The peer controls the session."
            }
        }
    }

    @Option(name: .long, help: "The UWB subsystem: \(UWBDeviceTarget.forms).")
    var device: String

    @Option(name: .customLong("session-id"), help: "The session ID, decimal or 0x hex; both peers use the same.")
    var sessionID = "1"

    @Option(name: .long, help: "UWB channel: 5, 6, 8, 9, 10, 12, 13 or 14.")
    var channel: UInt8 = FiRaSessionParameters.defaultChannel

    @Option(name: .long, help: "Preamble code index: 9-12 (BPRF) or 25-32 (HPRF).")
    var preamble: UInt8 = FiRaSessionParameters.defaultPreambleCodeIndex

    @Option(name: .long, help: "Ranging role: initiator (starts each round) or responder.")
    var role: Role = .initiator

    @Flag(exclusivity: .exclusive)
    var deviceType: DeviceType = .controller

    @Option(name: .long, help: "This device's MAC address: 0x0001 (short) or 16 hex digits (extended).")
    var mac = "0x0001"

    @Option(name: .long, help: "The peer's MAC address; repeat it for a one-to-many controller.")
    var peer: [String] = ["0x0002"]

    @Option(name: .customLong("interval-ms"), help: "Milliseconds between ranging rounds.")
    var intervalMS: UInt32 = FiRaSessionParameters.defaultRangingInterval

    @Option(name: .long, help: "Stop after this many range samples (default: until Ctrl-C).")
    var count: Int?

    @Option(
        name: .customLong("angles"),
        help: ArgumentHelp(
            "How the UWBS encodes angles and RSSI: fira (Q9.7 degrees, the dev kits) or pica (whole degrees, RSSI 0xFF: google/pica's emulator).",
            valueName: "dialect"))
    var angles = UCIMeasurementDialect.fira.rawValue

    @Flag(name: .long, help: "Print one JSON object per range sample.")
    var json = false

    @Flag(name: .long, help: "Log every UCI command and response on standard error (--log-level debug).")
    var verbose = false

    @OptionGroup var logging: LogOptions
    @OptionGroup var uciLog: UCILogOptions

    func validate() throws {
        _ = try UWBClientSetup.spec(device)
        _ = try session()
        _ = try dialect()
        if let count, count < 1 { throw ValidationError("--count must be at least 1, got \(count)") }
    }

    /// The session ID and the parameters the flags describe, validated.
    func session() throws -> (id: UInt32, parameters: FiRaSessionParameters) {
        do {
            return try UWBRangeRun.session(
                id: sessionID, mac: mac, peers: peer, deviceType: deviceType == .controller ? .controller : .controlee,
                deviceRole: role == .initiator ? .initiator : .responder, channel: channel, preamble: preamble, intervalMS: intervalMS)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// `--angles` parsed.
    func dialect() throws -> UCIMeasurementDialect {
        guard let dialect = UCIMeasurementDialect(rawValue: angles.lowercased()) else {
            throw ValidationError("--angles must be fira or pica, not \"\(angles)\"")
        }
        return dialect
    }

    func run() async throws {
        let spec = try UWBClientSetup.spec(device)
        let (id, parameters) = try session()
        let capture = try uciLog.open(interface: spec.description)
        defer { CaptureReport.finish("--uci-log", capture?.file) }
        let output = UWBRangeOutput(json: json)
        let run = try await NearbyExit.onError {
            let client = try UWBClientSetup.client(
                for: spec, verbose: verbose, logging: logging, configuration: UCIClientConfiguration(measurementDialect: try dialect()),
                capture: capture)
            return try await UWBRangeRun.open(client: client, sessionID: id, parameters: parameters)
        }
        output.note(
            "ranging on \(spec) (UCI \(run.deviceInfo.uciVersion)): session \(id), \(role.rawValue) \(deviceType.rawValue) "
                + "\(parameters.deviceMACAddress) -> \(parameters.destinationMACAddresses.map(\.description).joined(separator: ", ")), "
                + "channel \(channel), preamble \(preamble), every \(intervalMS) ms"
                + (count.map { ", \($0) samples" } ?? "; Ctrl-C stops"))

        // Armed before the first sample is printed: a signal sent on seeing output is never lost.
        let result = await onSignal({ run.stop(.signal($0)) }) {
            await run.run(count: count, sample: { output.sample($0, start: run.start) }, batchEnd: { output.flush() }, event: output.event)
        }
        for error in result.errors { Console.error("error: \(error)") }
        output.note("stopped after \(result.samples) sample(s)" + (result.stop.map { ", \($0)" } ?? "") + "; session \(id) closed")
        if result.failed { throw ExitCode(1) }
    }
}
