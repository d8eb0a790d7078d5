public import BlueZ
public import Logging
public import LowEnergy

/// Which Bluetooth backend a command uses and why, and opening it: this program's own host on
/// a controller it owns, or BlueZ (bluetoothd over D-Bus, sharing the adapter).
public enum BluetoothBackends {
    /// The controller `nearby` uses without BlueZ, when nothing else is named.
    public static let defaultHCI = HCITransportSpec.userChannel(adapter: 0)

    /// A chosen backend and the reason, for messages and `nearby doctor`.
    public struct Choice: Sendable, Hashable, CustomStringConvertible {
        /// The backend.
        public var spec: BluetoothBackendSpec
        /// Why this one.
        public var reason: String

        /// Creates a choice.
        public init(spec: BluetoothBackendSpec, reason: String) {
            self.spec = spec
            self.reason = reason
        }

        /// `bluez (bluetoothd owns hci0, powered)`.
        public var description: String { "\(spec) (\(reason))" }
    }

    /// The backend `text` names (`--hci` or `transports.hci`); without one (or with `auto`):
    /// BlueZ when bluetoothd owns a powered adapter, else `hci:0` (the HCI user channel, which
    /// needs the adapter powered off in BlueZ or bluetoothd stopped).
    /// - Throws: `BluetoothError.invalidTransportSpec(spec:problem:)` for a spec
    ///   that does not parse.
    public static func resolve(_ text: String?, bus: DBusConnection.Bus = .system) async throws(BluetoothError) -> Choice {
        if let text, text.lowercased() != "auto" {
            return Choice(spec: try BluetoothBackendSpec(parsing: text), reason: "as given")
        }
        return automatic(await BlueZProbe.probe(bus: bus))
    }

    /// The automatic choice for what the probe found.
    public static func automatic(_ probe: BlueZProbe) -> Choice {
        let fallback = BluetoothBackendSpec.host(defaultHCI)
        switch probe {
        case .noBus:
            return Choice(spec: fallback, reason: "no D-Bus system bus, so no bluetoothd: this program's own host on hci0")
        case .libraryMissing(let detail):
            return Choice(spec: fallback, reason: "\(detail), so no bluetoothd: this program's own host on hci0")
        case .notRunning:
            return Choice(spec: fallback, reason: "bluetoothd is not running: this program's own host on hci0")
        case .accessDenied:
            return Choice(spec: fallback, reason: "the D-Bus policy does not let this user talk to bluetoothd: this program's own host on hci0")
        case .failed(let detail):
            return Choice(spec: fallback, reason: "bluetoothd did not answer (\(detail)): this program's own host on hci0")
        case .running(let adapters, _):
            if let powered = adapters.first(where: \.powered) {
                return Choice(spec: .bluez(adapter: powered.name),
                              reason: "bluetoothd owns \(powered.name) and it is powered: sharing it through BlueZ")
            }
            if let first = adapters.first {
                return Choice(spec: fallback, reason: "\(first.name) is powered off in BlueZ (free for this program's own host): hci0")
            }
            return Choice(spec: fallback, reason: "bluetoothd has no adapter: this program's own host on hci0")
        }
    }

    /// Opens the central `spec` names.
    /// - Parameters:
    ///   - spec: the backend: this program's own host on a transport, or BlueZ.
    ///   - host: own address and command set (this program's own host only).
    ///   - security: pairing policy, prompts, bonds (BlueZ keeps its own bonds; its agent asks
    ///     the same delegate).
    ///   - capture: where HCI packets are recorded (own host only; `--hci-log`).
    ///   - bus: the D-Bus bus bluetoothd is on (BlueZ only).
    ///   - logger: where the backend logs.
    /// - Throws: the backend's `BluetoothError`.
    public static func openCentral(_ spec: BluetoothBackendSpec, host: BLEHostConfiguration = BLEHostConfiguration(),
                                   security: SecurityContext = SecurityContext(), capture: HCICaptureLog? = nil,
                                   bus: DBusConnection.Bus = .system, logger: Logger) async throws(BluetoothError) -> any BLECentral {
        switch spec {
        case .host(let transport):
            return try await BLEHost.open(transport, configuration: host, security: security, capture: capture, logger: logger)
        case .bluez(let adapter):
            return try await BlueZCentral.open(adapter: adapter, bus: bus, security: security, logger: logger)
        }
    }

    /// Opens the peripheral `spec` names (the accessory role).
    /// - Throws: the backend's `BluetoothError`.
    public static func openPeripheral(_ spec: BluetoothBackendSpec, host: BLEHostConfiguration = BLEHostConfiguration(),
                                      security: SecurityContext = SecurityContext(), capture: HCICaptureLog? = nil,
                                      bus: DBusConnection.Bus = .system, logger: Logger) async throws(BluetoothError) -> any BLEPeripheral {
        switch spec {
        case .host(let transport):
            var configuration = host
            configuration.acceptsPeripheralConnections = true
            let opened = try await BLEHost.open(transport, configuration: configuration, security: security, capture: capture, logger: logger)
            return HostPeripheral(host: opened, logger: logger)
        case .bluez(let adapter):
            return try await BlueZPeripheral.open(adapter: adapter, bus: bus, logger: logger)
        }
    }

    /// Removes `address` from BlueZ (`Adapter1.RemoveDevice`, its bond included) when bluetoothd
    /// runs: `nearby accessories forget` of an accessory whose bond BlueZ keeps, and `--repair`.
    /// - Returns: what happened, for a message.
    public static func removeFromBlueZ(_ address: BluetoothAddress, adapter: String?, bus: DBusConnection.Bus = .system,
                                       logger: Logger) async -> Result<Bool, BluetoothError> {
        let central: BlueZCentral
        do {
            central = try await BlueZCentral.open(adapter: adapter, bus: bus, logger: logger)
        } catch {
            return .failure(error)
        }
        let result: Result<Bool, BluetoothError>
        do {
            result = .success(try await central.removeDevice(address))
        } catch {
            result = .failure(error)
        }
        await central.close()
        return result
    }
}
