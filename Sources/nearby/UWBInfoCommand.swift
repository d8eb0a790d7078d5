import ArgumentParser
import Logging
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
        let client: UCIClient
        do {
            client = try UWBClientSetup.client(for: spec, verbose: verbose, logging: logging, capture: capture)
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }
        let info: UCIDeviceInfo
        do {
            info = try await client.open()
        } catch {
            UWBConsole.error("error: \(error)")
            await client.close(deinitializingSessions: false)
            throw ExitCode(1)
        }
        let fields = Self.fields(device: spec.description, info: info, capabilities: await client.capabilities,
                                 capabilitiesError: await client.capabilitiesError)
        await client.close(deinitializingSessions: false)
        print(json ? UCIField.json(fields) : UCIField.text(fields))
    }

    /// The report as named fields: readable with `UCIField.text`, JSON with `UCIField.json`.
    static func fields(device: String, info: UCIDeviceInfo, capabilities: UCICapabilities?, capabilitiesError: UCIClientError?) -> [UCIField] {
        var fields = [
            UCIField("device", .text(device)),
            UCIField("uci_version", .text(info.uciVersion.description)),
            UCIField("mac_version", .text(info.macVersion.description)),
            UCIField("phy_version", .text(info.phyVersion.description)),
            UCIField("test_version", .text(info.testVersion.description)),
            UCIField("vendor_info", .bytes(info.vendorInfo)),
        ]
        if let capabilities {
            fields.append(UCIField("capabilities", .group(capabilities.entries.map { capabilityField($0, version: capabilities.version) })))
        } else {
            let reason = capabilitiesError.map { "not reported: \($0.status?.description ?? $0.reason)" } ?? "not read"
            fields.append(UCIField("capabilities", .text(reason)))
        }
        return fields
    }

    /// One capability, decoded for its kind where nearby knows it, else its raw bytes.
    static func capabilityField(_ capability: UCICapability, version: UCIVersion) -> UCIField {
        let kind = capability.kind(for: version)
        let name: String
        if case .other(let id) = kind {
            name = "capability_0x" + String(id, radix: 16)
        } else {
            name = kind.description.lowercased()
        }
        let single = UCICapabilities([capability], version: version)
        func codes<T>(_ values: [T]?, _ describe: (T) -> (String?, UInt8)) -> UCIFieldValue? {
            values.map { .list($0.map { value in
                let (label, raw) = describe(value)
                return .code(label ?? "reserved", raw: UInt64(raw))
            }) }
        }
        let value: UCIFieldValue?
        do {
            switch kind {
            case .channels: value = try single.channels().map { .list($0.map { .integer(Int64($0)) }) }
            case .deviceRoles: value = codes(try single.deviceRoles()) { ($0.name, $0.rawValue) }
            case .rangingMethods: value = codes(try single.rangingMethods()) { ($0.name, $0.rawValue) }
            case .stsConfigs: value = codes(try single.stsConfigs()) { ($0.name, $0.rawValue) }
            case .multiNodeModes: value = codes(try single.multiNodeModes()) { ($0.name, $0.rawValue) }
            case .rframeConfigs: value = codes(try single.rframeConfigs()) { ($0.name, $0.rawValue) }
            case .aoa:
                value = try single.aoa().map { aoa in
                    let names: [(UCIAoACapability, String)] = [
                        (.azimuth90, "azimuth ±90°"), (.azimuth180, "azimuth ±180°"), (.elevation, "elevation"), (.figureOfMerit, "FoM"),
                    ]
                    return .list(names.filter { aoa.contains($0.0) }.map { .text($0.1) })
                }
            case .extendedMACAddress: value = try single.supportsExtendedMACAddress().map { .flag($0) }
            case .hoppingMode: value = try single.supportsHopping().map { .flag($0) }
            case .uwbInitiationTime: value = try single.supportsUWBInitiationTime().map { .flag($0) }
            case .maxMessageSize: value = try single.maxMessageSize().map { .integer(Int64($0)) }
            case .maxDataPacketPayloadSize: value = try single.maxDataPacketPayloadSize().map { .integer(Int64($0)) }
            case .deviceTypes:
                value = codes(bitIndices(capability.value)) { bit in (UCIDeviceType(rawValue: bit).name, bit) }
            case .scheduledModes:
                value = codes(bitIndices(capability.value)) { bit in (UCIScheduleMode(rawValue: bit).name, bit) }
            case .blockStriding where capability.value.count == 1: value = .flag(capability.value[0] != 0)
            case .phyVersionRange where capability.value.count == 4, .macVersionRange where capability.value.count == 4:
                let v = capability.value
                value = .text("\(v[0]).\(v[1]) to \(v[2]).\(v[3])")
            default: value = nil
            }
        } catch {
            return UCIField(name, .text("\(UCIFieldValue.bytes(capability.value).text) (malformed: \(error.detail))"))
        }
        return UCIField(name, value ?? .bytes(capability.value))
    }
}

/// The bits set in a little-endian bit mask of 1-8 bytes (bit n = value n), `nil` for other sizes.
private func bitIndices(_ mask: [UInt8]) -> [UInt8]? {
    guard (1...8).contains(mask.count) else { return nil }
    return mask.enumerated().flatMap { index, byte in
        (0..<8).compactMap { bit in byte & (1 << bit) != 0 ? UInt8(8 * index + bit) : nil }
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
