/// `[transports]`: which controller and which UWB device to use, as spec strings (the CLI's
/// `--hci` and `--device`). Checked here by syntax; the CLI parses them fully.
public struct TransportSettings: Sendable, Hashable {
    /// The BLE controller: `hci:N`, `tcp:HOST:PORT` or `serial:PATH[@BAUD][,rtscts]` (`hci`).
    public var hci: String?
    /// The UWB device: `usb:VID:PID[@BUS.ADDR]`, `serial:PATH[@BAUD]`, `tcp:HOST:PORT` or `sim` (`uwb`).
    public var uwb: String?
    /// Use the legacy (Bluetooth 4.x) scan and connect commands even on a Bluetooth 5
    /// controller (`hci_legacy`, the CLI's `--hci-legacy`).
    public var hciLegacy: Bool?
    /// The own BLE address: `random` (a random static address stored per controller, the
    /// default) or `public` (the controller's) (`own_address`, the CLI's `--own-address`).
    public var ownAddress: String?

    /// Creates settings; `nil` = not set.
    public init(hci: String? = nil, uwb: String? = nil, hciLegacy: Bool? = nil, ownAddress: String? = nil) {
        self.hci = hci
        self.uwb = uwb
        self.hciLegacy = hciLegacy
        self.ownAddress = ownAddress
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: TransportSettings) -> TransportSettings {
        TransportSettings(hci: flags.hci ?? hci, uwb: flags.uwb ?? uwb, hciLegacy: flags.hciLegacy ?? hciLegacy,
                          ownAddress: flags.ownAddress ?? ownAddress)
    }
}

/// Checks transport spec strings. The default checks the scheme only (this module does not
/// depend on the transport modules); the CLI passes full parsers (`HCITransportSpec`,
/// `UWBDeviceSpec`) so `nearby config check` reports every mistake.
public struct TransportValidators: Sendable {
    /// Returns an error message for a bad `hci` spec, `nil` if it is fine.
    public var hci: @Sendable (String) -> String?
    /// Returns an error message for a bad `uwb` spec, `nil` if it is fine.
    public var uwb: @Sendable (String) -> String?

    /// Creates validators.
    public init(hci: @escaping @Sendable (String) -> String?, uwb: @escaping @Sendable (String) -> String?) {
        self.hci = hci
        self.uwb = uwb
    }

    /// Scheme-only checks: `hci:`, `tcp:`, `serial:` for `hci`; `usb:`, `serial:`, `tcp:`, `sim` for `uwb`.
    public static let syntax = TransportValidators(
        hci: { spec in
            let lowered = spec.lowercased()
            if lowered == "bluez" || lowered == "auto" { return nil }
            let scheme = spec.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            guard spec.contains(":"), ["hci", "tcp", "serial", "bluez"].contains(scheme), spec.count > scheme.count + 1 else {
                return "'\(spec)' is not a controller; write bluez[:hciN], hci:N (e.g. hci:0), tcp:HOST:PORT or serial:PATH[@BAUD][,rtscts]"
            }
            return nil
        },
        uwb: { spec in
            if spec == "sim" { return nil }
            let scheme = spec.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            guard spec.contains(":"), ["usb", "serial", "tcp"].contains(scheme), spec.count > scheme.count + 1 else {
                return "'\(spec)' is not a UWB device; write usb:VID:PID[@BUS.ADDR] (e.g. usb:1915:520f), serial:PATH[@BAUD], tcp:HOST:PORT or sim"
            }
            return nil
        })
}
