import Accessories
import ArgumentParser
import Foundation
import Logging
import LowEnergy
import NearbyRuntime
import NearbyTerminal

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

    /// `--range`.
    var discoveryRange: DiscoveryRange { range == .immediate ? .immediate : .default }

    /// The descriptor the flags and the name substring describe.
    /// - Throws: `ValidationError` naming the flag (exit code 64).
    func descriptor(name: String?) throws -> DiscoveryDescriptor {
        try Self.flagged { () throws(DiscoveryDescriptorTextError) in
            try DiscoveryDescriptor(service: service, company: company, manufacturerData: manufacturerData, serviceData: serviceData,
                                    nameSubstring: name, nameIgnoresCase: ignoreCase, range: discoveryRange)
        }
    }

    /// The scan filter the flags and the name substring describe (`nearby scan`).
    /// - Throws: `ValidationError` naming the flag (exit code 64).
    func filter(name: String?) throws -> AdvertisementFilter {
        try Self.flagged { () throws(DiscoveryDescriptorTextError) in
            try AdvertisementFilter(service: service, company: company, manufacturerData: manufacturerData, serviceData: serviceData,
                                    nameSubstring: name, ignoringCase: ignoreCase, range: discoveryRange)
        }
    }

    /// What `make` returns, or its error as a `ValidationError` naming the flag.
    static func flagged<T>(_ make: () throws(DiscoveryDescriptorTextError) -> T) throws -> T {
        do {
            return try make()
        } catch {
            throw ValidationError(error.flagDescription)
        }
    }
}

/// `--hci SPEC`: the Bluetooth backend: BlueZ (sharing the adapter) or this program's own host
/// on a controller.
struct HCIOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Bluetooth: bluez[:hciN] (bluetoothd over D-Bus, the adapter stays shared), hci:N (this program's own host on the HCI user channel, needs CAP_NET_ADMIN and the adapter powered off in BlueZ), tcp:HOST:PORT or serial:PATH[@BAUD]. Default: bluez when bluetoothd owns a powered adapter, else hci:0 (nearby doctor says which).",
        valueName: "spec"))
    var hci: String?

    @Flag(name: .long, help: "Log HCI and host activity on standard error (--log-level debug).")
    var verbose = false

    @Flag(name: .customLong("hci-legacy"), help: "Use the legacy (Bluetooth 4.x) scan and connect commands, for Bluetooth 5 controllers that refuse the extended ones (own host only).")
    var hciLegacy = false

    @Option(name: .customLong("own-address"), help: "The own BLE address: random (a static address generated once per controller and stored, the default) or public (the controller's). Own host only: BlueZ chooses its own.")
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

    /// Checks the spec's syntax (the backend is chosen when the command runs).
    func validate() throws {
        if let hci, hci.lowercased() != "auto" {
            do {
                let spec = try BluetoothBackendSpec(parsing: hci)
                if spec.isBlueZ, hciLog.path != nil { throw ValidationError(Self.hciLogWithBlueZ) }
            } catch let error as BluetoothError {
                throw ValidationError(error.description)
            }
        }
    }

    static let hciLogWithBlueZ = "--hci-log records this program's own host; through BlueZ record with btmon instead: `sudo btmon -w FILE.btsnoop`"

    /// The host configuration these flags describe.
    var configuration: BLEHostConfiguration {
        BLEHostConfiguration(ownAddress: ownAddress == .public ? .public : .randomStatic(nil), commandSet: hciLegacy ? .legacy : .automatic)
    }

    /// The backend: `--hci`, else the automatic choice (BlueZ when bluetoothd owns a powered adapter).
    func choice() async throws -> BluetoothBackends.Choice {
        do {
            return try await BluetoothBackends.resolve(hci)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Opens the central, or prints why not and exits 1.
    /// - Parameter security: bonds and identity (from the accessory store), pairing policy and
    ///   prompts; default: nothing stored.
    /// - Returns: the central, its `--hci-log` capture (`nil` without the flag): pass it to
    ///   `CaptureReport.finish` once the central is closed; and the backend's name for messages.
    func openCentral(security: SecurityContext = SecurityContext()) async throws
        -> (central: any BLECentral, capture: HCICaptureLog?, choice: BluetoothBackends.Choice) {
        let choice = try await choice()
        if choice.spec.isBlueZ, hciLog.path != nil { throw ValidationError(Self.hciLogWithBlueZ) }
        if choice.spec.isBlueZ, security.configuration.allowsDebugKeys { throw ValidationError(PairingPolicyOptions.debugKeysWithBlueZ) }
        let logger = logger("nearby.ble")
        if hci == nil { logger.info("Bluetooth: \(choice)") }
        let capture = try hciLog.open()
        do {
            let central = try await NearbyExit.onError {
                try await BluetoothBackends.openCentral(choice.spec, host: configuration, security: security, capture: capture, logger: logger)
            }
            return (central, capture, choice)
        } catch {
            CaptureReport.finish("--hci-log", capture?.file)
            throw error
        }
    }
}

extension BLECentral {
    /// What to print as the controller: the spec as given for this program's own host
    /// (`tcp:127.0.0.1:5000`), `bluez (hci0)` for BlueZ.
    func shownName(_ choice: BluetoothBackends.Choice) -> String {
        choice.spec.isBlueZ ? backendName : choice.spec.description
    }
}

/// `--store PATH`: the accessory store (else `$NEARBY_STORE`, else the XDG default).
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).",
        valueName: "path"))
    var store: String?

    /// The path in use.
    var path: String { AccessoryStore.path(store) }

    /// The store.
    func open() -> AccessoryStore { AccessoryStore(path: path) }
}
