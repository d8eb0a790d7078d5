import ArgumentParser
import Dispatch
import Foundation
import Ranging
import Synchronization
import UCI
import Simulation
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
        guard let id = Self.number(sessionID, UInt32.self) else {
            throw ValidationError("--session-id \"\(sessionID)\" is not a number 0-4294967295 (decimal or 0x hex)")
        }
        let own = try Self.address(mac, option: "--mac")
        let peers = try peer.map { try Self.address($0, option: "--peer") }
        var parameters = FiRaSessionParameters(
            deviceMACAddress: own, destinationMACAddresses: peers,
            deviceType: deviceType == .controller ? .controller : .controlee,
            deviceRole: role == .initiator ? .initiator : .responder,
            channel: channel, preambleCodeIndex: preamble, rangingInterval: intervalMS)
        if peers.count > 1 { parameters.multiNodeMode = .oneToMany }
        do {
            try parameters.validate()
        } catch {
            throw ValidationError(error.description)
        }
        return (id, parameters)
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
        let client: UCIClient
        do {
            client = try UWBClientSetup.client(
                for: spec, verbose: verbose, logging: logging, configuration: UCIClientConfiguration(measurementDialect: try dialect()),
                capture: capture)
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }
        let output = RangeOutput(json: json)
        let session: UWBSession
        let info: UCIDeviceInfo
        let start: Double
        do {
            info = try await client.open()
            session = try await client.openSession(id: id, parameters: parameters)
            start = MonotonicTime.seconds()
            try await session.start()
        } catch {
            UWBConsole.error("error: \(error)")
            await client.close()
            throw ExitCode(1)
        }
        output.note(
            "ranging on \(spec) (UCI \(info.uciVersion)): session \(id), \(role.rawValue) \(deviceType.rawValue) "
                + "\(parameters.deviceMACAddress) -> \(parameters.destinationMACAddresses.map(\.description).joined(separator: ", ")), "
                + "channel \(channel), preamble \(preamble), every \(intervalMS) ms"
                + (count.map { ", \($0) samples" } ?? "; Ctrl-C stops"))

        // Armed before the first sample is printed: a signal sent on seeing output is never lost.
        let signals = SignalStream([SIGINT, SIGTERM])
        let stop = RangeStop()
        let limit = count
        let samples = Task { () -> Int in
            var printed = 0
            for await sample in session.samples {
                output.sample(sample, start: start)
                printed += 1
                if let limit, printed >= limit { break }
            }
            return printed
        }
        let watchers = [
            Task {
                for await number in signals.stream {
                    stop.set(.signal(number))
                    samples.cancel()
                    return
                }
            },
            Task {
                for await event in session.events {
                    // State changes the host's own commands caused are not news.
                    if case .stateChanged(_, .stateChangeWithSessionManagementCommands) = event { continue }
                    output.event("session \(id): \(event)")
                    if let ending = RangeStop.Reason(event) {
                        stop.set(ending)
                        samples.cancel()
                    }
                }
            },
            Task {
                for await event in client.events() {
                    switch event {
                    case .deviceStateChanged, .genericError: continue
                    case .recoveryFailed(let error):
                        output.event("\(event)")
                        stop.set(.failed(error.description))
                        samples.cancel()
                    default: output.event("\(event)")
                    }
                }
            },
        ]
        let printed = await samples.value
        for watcher in watchers { watcher.cancel() }
        signals.cancel()

        var failed = false
        switch stop.reason {
        case .failed(let message)?:
            UWBConsole.error("error: \(message)")
            failed = true
        case nil where limit.map({ printed < $0 }) ?? true:
            UWBConsole.error("error: the session ended after \(printed) sample(s)")
            failed = true
        default:
            break
        }
        do {
            try await session.close()
        } catch where error.code == .sessionNotOpen || error.code == .unavailable {
            // The UWBS already ended it, or the dev kit is gone (and the session with it).
        } catch {
            UWBConsole.error("error: \(error)")
            failed = true
        }
        await client.close()
        output.note("stopped after \(printed) sample(s)" + (stop.reason.map { ", \($0)" } ?? "") + "; session \(id) closed")
        if failed { throw ExitCode(1) }
    }

    /// Parses a decimal or `0x` hex number.
    static func number<T: FixedWidthInteger>(_ text: String, _ type: T.Type) -> T? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return T(trimmed.dropFirst(2), radix: 16) }
        return T(trimmed)
    }

    /// `0x0001` / `0001` (short, up to 4 hex digits) or 16 hex digits (extended).
    static func address(_ text: String, option: String) throws -> UCIMACAddress {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
        digits = digits.filter { $0 != ":" }[...]
        if (1...4).contains(digits.count), let value = UInt16(digits, radix: 16) { return .short(value) }
        if digits.count == 16, let value = UInt64(digits, radix: 16) { return .extended(value) }
        throw ValidationError(
            "\(option) \"\(text)\" is not a MAC address: give a short address (1-4 hex digits, e.g. 0x0002) or an extended one (16 hex digits)")
    }
}

/// Why `nearby uwb range` stops (set once, by whichever comes first).
final class RangeStop: Sendable {
    enum Reason: Sendable, CustomStringConvertible {
        case signal(Int32)
        case failed(String)

        /// The session events that end a run.
        init?(_ event: UWBSessionEvent) {
            switch event {
            case .restoreFailed(let error): self = .failed("the session could not be restored: \(error.reason)")
            case .stateChanged(.deinitialized, let reason): self = .failed("the UWBS ended the session (\(reason))")
            case .stateChanged(.idle, let reason) where reason != .stateChangeWithSessionManagementCommands:
                self = .failed("the UWBS stopped the session (\(reason))")
            default: return nil
            }
        }

        var description: String {
            switch self {
            case .signal(let number): number == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"
            case .failed(let message): message
            }
        }
    }

    private let state = Mutex<Reason?>(nil)

    /// The first reason set, if any.
    var reason: Reason? { state.withLock { $0 } }

    /// Sets the reason unless one is already set.
    func set(_ reason: Reason) {
        state.withLock { if $0 == nil { $0 = reason } }
    }
}

/// Prints range samples (lines or JSON objects) on standard output, flushed at once; notes go
/// to standard output in text mode and to standard error in JSON mode, events to standard error.
struct RangeOutput: Sendable {
    let json: Bool

    func sample(_ peerSample: UCIPeerRangeSample, start: Double) {
        let sample = peerSample.sample
        let time = max(0, sample.timestamp - start)
        let status = UCIStatus(rawValue: sample.status)
        let statusName = status.name ?? String(format: "0x%02X", sample.status)
        if json {
            let fields: [(String, String)] = [
                ("t_s", String(format: "%.3f", time)),
                ("peer", "\"\(peerSample.peer)\""),
                ("distance_m", Self.number(sample.distance)),
                ("azimuth_deg", Self.number(sample.azimuth)),
                ("elevation_deg", Self.number(sample.elevation)),
                ("fom", sample.figureOfMerit.map { "\($0)" } ?? "null"),
                ("nlos", sample.isNonLineOfSight.map { $0 ? "true" : "false" } ?? "null"),
                ("status", "\"\(statusName)\""),
            ]
            Self.emit("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
            return
        }
        var line = String(format: "%8.3f s  ", time) + "\(peerSample.peer)"
        guard sample.isValid, let distance = sample.distance else {
            Self.emit(line + "  no measurement: \(status)")
            return
        }
        line += String(format: "  %6.2f m", distance)
        if let azimuth = sample.azimuth { line += String(format: "  azimuth %6.1f°", azimuth) }
        if let elevation = sample.elevation { line += String(format: "  elevation %5.1f°", elevation) }
        if let fom = sample.figureOfMerit { line += "  FoM \(fom)" }
        if let nlos = sample.isNonLineOfSight { line += nlos ? "  NLoS" : "  LoS" }
        Self.emit(line)
    }

    func note(_ text: String) {
        if json { UWBConsole.error(text) } else { Self.emit(text) }
    }

    func event(_ text: String) {
        UWBConsole.error(text)
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    /// One line on standard output, flushed (a pipe must see every sample at once).
    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// SIGINT / SIGTERM as an async stream: the default action (exit) is replaced while it lives.
/// `init` returns once the handlers are registered (libdispatch registers a signal source
/// asynchronously; a signal arriving in between, with the action already SIG_IGN, would be lost).
final class SignalStream: @unchecked Sendable {
    // @unchecked: the dispatch sources are only touched at init and in cancel(), which is
    // called once by the owner; DispatchSource itself is thread-safe.
    let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init(_ numbers: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        let registered = DispatchSemaphore(value: 0)
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        // Bounded: a registration that does not happen within 2 s is not waited for further.
        for _ in numbers { _ = registered.wait(timeout: .now() + 2) }
    }

    /// Stops watching and restores the default actions.
    func cancel() {
        for source in sources { source.cancel() }
        for source in sources { signal(Int32(source.handle), SIG_DFL) }
    }
}
