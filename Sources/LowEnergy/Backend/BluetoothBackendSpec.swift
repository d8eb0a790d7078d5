/// Which backend carries Bluetooth, as the user writes it (`--hci`, `transports.hci`):
///
/// - `bluez` / `bluez:hciN` / `bluez:N` — bluetoothd over D-Bus (the adapter stays shared with
///   the rest of the system; default adapter: the first one BlueZ lists, usually hci0);
/// - `hci:N`, `tcp:HOST:PORT`, `serial:PATH[@BAUD][,rtscts]` — this program's own host on a
///   controller it owns (``HCITransportSpec``).
///
/// Without a spec the program picks: BlueZ when bluetoothd owns a powered adapter, else `hci:0`
/// (`NearbyRuntime`'s `BluetoothBackends.resolve`; `nearby doctor` says which and why).
public enum BluetoothBackendSpec: Sendable, Hashable, CustomStringConvertible {
    /// This program's own host over an HCI transport.
    case host(HCITransportSpec)
    /// BlueZ over D-Bus; `adapter` is the adapter's name (`hci0`), `nil` for BlueZ's first.
    case bluez(adapter: String?)

    /// Parses a spec.
    /// - Throws: ``BluetoothError/invalidTransportSpec(spec:problem:)`` saying what is wrong.
    public init(parsing text: String) throws(BluetoothError) {
        let lowered = text.lowercased()
        if lowered == "bluez" {
            self = .bluez(adapter: nil)
            return
        }
        if lowered.hasPrefix("bluez:") {
            let rest = String(text.dropFirst("bluez:".count))
            let digits = rest.lowercased().hasPrefix("hci") ? String(rest.dropFirst(3)) : rest
            guard let index = UInt16(digits), index < 0xFFFF else {
                throw .invalidTransportSpec(spec: text, problem: "\"\(rest)\" is not an adapter (bluez:hci0 or bluez:0)")
            }
            self = .bluez(adapter: "hci\(index)")
            return
        }
        self = .host(try HCITransportSpec(parsing: text))
    }

    /// `bluez`, `bluez:hci1`, or the HCI transport spec.
    public var description: String {
        switch self {
        case .host(let spec): spec.description
        case .bluez(let adapter): adapter.map { "bluez:\($0)" } ?? "bluez"
        }
    }

    /// `true` for the BlueZ backend.
    public var isBlueZ: Bool {
        if case .bluez = self { return true }
        return false
    }
}
