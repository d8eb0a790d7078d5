import Accessories
import ArgumentParser
import Foundation
import Logging
import LowEnergy

/// The discovery-descriptor flags `nearby scan` and `nearby setup` share (the name substring
/// is each command's own flag: `--name` in scan, `--name-contains` in both, since setup's
/// `--name` is the display name).
struct DescriptorOptions: ParsableArguments {
    @Option(name: .long, help: "Service UUID the accessory advertises (180D, 0000180D or 8-4-4-4-12 hex).")
    var service: String?

    @Option(name: .long, help: "Company identifier of its manufacturer data: 0x004C (hex) or 76 (decimal).")
    var company: String?

    @Option(name: .customLong("manufacturer-data"), help: "Manufacturer data prefix HEX[/MASK] (needs --company), e.g. 0a0b/ffff.")
    var manufacturerData: String?

    @Option(name: .customLong("service-data"), help: "Service data prefix HEX[/MASK] of --service, e.g. 01/ff.")
    var serviceData: String?

    @Flag(name: .customLong("ignore-case"), help: "Compare the name substring ignoring case.")
    var ignoreCase = false

    @Option(name: .long, help: "default (any RSSI) or immediate (RSSI >= \(DiscoveryRange.immediateThreshold) dBm: next to the adapter).")
    var range: RangeArgument = .default

    /// `--range` on the command line.
    enum RangeArgument: String, ExpressibleByArgument, CaseIterable {
        case `default`, immediate
    }

    /// `true` if no descriptor flag was given (and no name substring).
    func isEmpty(name: String?) -> Bool {
        service == nil && company == nil && manufacturerData == nil && serviceData == nil && name == nil && !ignoreCase && range == .default
    }

    /// The descriptor the flags and the name substring describe.
    /// - Throws: `ValidationError` naming the flag (exit code 64).
    func descriptor(name: String?) throws -> DiscoveryDescriptor {
        let uuid = try service.map { text -> BluetoothUUID in
            guard let uuid = BluetoothUUID(text) else {
                throw ValidationError("--service \"\(text)\" is not a UUID: give 4 or 8 hex digits (180D) or 8-4-4-4-12 hex digits")
            }
            return uuid
        }
        let companyID = try company.map { text -> UInt16 in
            guard let value = Self.companyIdentifier(text) else {
                throw ValidationError("--company \"\(text)\" is not a company identifier: give 0x0000-0xFFFF (hex with 0x) or 0-65535")
            }
            return value
        }
        let manufacturer = try manufacturerData.map { try Self.blob($0, flag: "--manufacturer-data") }
        let serviceBlob = try serviceData.map { try Self.blob($0, flag: "--service-data") }
        do {
            return try DiscoveryDescriptor(
                serviceUUID: uuid, companyIdentifier: companyID,
                manufacturerDataBlob: manufacturer?.blob, manufacturerDataMask: manufacturer?.mask,
                serviceDataBlob: serviceBlob?.blob, serviceDataMask: serviceBlob?.mask,
                nameSubstring: name, nameIgnoresCase: ignoreCase, range: range == .immediate ? .immediate : .default)
        } catch {
            throw ValidationError("\(error) (\(Self.flags(error)))")
        }
    }

    /// `0x004C`, `0X4c` (hex) or `76` (decimal).
    static func companyIdentifier(_ text: String) -> UInt16? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt16(trimmed.dropFirst(2), radix: 16) }
        return UInt16(trimmed)
    }

    /// `HEX` or `HEX/MASK`.
    static func blob(_ text: String, flag: String) throws -> (blob: [UInt8], mask: [UInt8]?) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let blob = HexBytes.decode(parts[0]) else {
            throw ValidationError("\(flag) \"\(text)\" is not HEX or HEX/MASK (an even number of hex digits, e.g. 0a0b or 0a0b/ff0f)")
        }
        guard parts.count == 2 else { return (blob, nil) }
        guard let mask = HexBytes.decode(parts[1]) else {
            throw ValidationError("\(flag) mask \"\(parts[1])\" is not hex (an even number of hex digits, e.g. ff0f)")
        }
        return (blob, mask)
    }

    /// The flags a descriptor error is about.
    static func flags(_ error: DiscoveryDescriptorError) -> String {
        switch error {
        case .missingServiceOrCompany: return "give --service or --company"
        case .maskLengthMismatch(let mask, _, _, _), .maskWithoutBlob(let mask, _):
            return mask == .manufacturerDataMask ? "--manufacturer-data HEX/MASK" : "--service-data HEX/MASK"
        case .blobWithoutKey(let blob, _):
            return blob == .manufacturerDataBlob ? "--manufacturer-data needs --company" : "--service-data needs --service"
        case .empty(let field):
            return field == .nameSubstring ? "--name-contains" : "--manufacturer-data / --service-data"
        }
    }
}


/// `--hci SPEC`: the Bluetooth controller.
struct HCIOptions: ParsableArguments {
    @Option(name: .long, help: "The Bluetooth controller: hci:N (kernel adapter, needs CAP_NET_ADMIN), tcp:HOST:PORT or serial:PATH[@BAUD].")
    var hci = "hci:0"

    @Flag(name: .long, help: "Log HCI and host activity on standard error (--log-level debug).")
    var verbose = false

    @Flag(name: .customLong("hci-legacy"), help: "Use the legacy (Bluetooth 4.x) scan and connect commands, for Bluetooth 5 controllers that refuse the extended ones.")
    var hciLegacy = false

    @Option(name: .customLong("own-address"), help: "The own BLE address: random (a static address generated once per controller and stored, the default) or public (the controller's).")
    var ownAddress: OwnAddressArgument = .random

    @OptionGroup var hciLog: HCILogOptions

    /// `--own-address`.
    enum OwnAddressArgument: String, ExpressibleByArgument, CaseIterable {
        case random, `public`
    }

    @OptionGroup var logging: LogOptions

    /// Configures logging (`--log-level`, `--verbose`) and returns a logger labelled `label`.
    func logger(_ label: String) -> Logger {
        logging.bootstrap(verbose: verbose)
        return Logger(label: label)
    }

    /// The parsed spec.
    func spec() throws -> HCITransportSpec {
        do {
            return try HCITransportSpec(parsing: hci)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The host configuration these flags describe.
    var configuration: BLEHostConfiguration {
        BLEHostConfiguration(ownAddress: ownAddress == .public ? .public : .randomStatic(nil), commandSet: hciLegacy ? .legacy : .automatic)
    }

    /// Opens and starts the host, or prints why not and exits 1.
    /// - Parameter security: bonds and identity (from the accessory store), pairing policy and
    ///   prompts; default: nothing stored.
    func openHost(security: SecurityContext = SecurityContext()) async throws -> BLEHost {
        let spec = try spec()
        let logger = logger("nearby.ble")
        let capture = try hciLog.open()
        do {
            return try await BLEHost.open(spec, configuration: configuration, security: security, capture: capture, logger: logger)
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }
    }
}

/// `--store PATH`: the accessory store (else `$NEARBY_STORE`, else the XDG default).
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).",
        valueName: "path"))
    var store: String?

    /// The path in use.
    var path: String {
        if let store { return store }
        if let fromEnvironment = ProcessInfo.processInfo.environment["NEARBY_STORE"], !fromEnvironment.isEmpty { return fromEnvironment }
        return AccessoryStore.defaultPath()
    }

    /// The store.
    func open() -> AccessoryStore { AccessoryStore(path: path) }
}

/// Output of the accessory commands: unbuffered lines (a pipe sees each line at once).
enum AccessoryConsole {
    /// Writes a line to standard output.
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// Writes JSON lines and records for the accessory commands.
enum AccessoryJSON {
    /// One compact JSON object (keys sorted) per line.
    static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }

    /// Pretty JSON (keys sorted), for lists.
    static func pretty(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "[]"
    }
}
