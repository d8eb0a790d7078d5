/// The central role as the rest of the program uses it: scan, open a data channel to an
/// accessory, connect once to set one up (check its data channel, pair).
///
/// Sessions, `nearby scan`, setup, the picker and the advertising monitor see only this seam;
/// two backends carry it: ``BLEHost`` (this program's own host on a controller it owns: the HCI
/// user channel, a UART, Bumble) and the BlueZ backend (bluetoothd over D-Bus, sharing the
/// adapter with the rest of the system; module `BlueZ`).
public protocol BLECentral: AnyObject, Sendable {
    /// What carries the central, for messages: `hci:0`, `tcp:127.0.0.1:5000`, `bluez (hci0)`.
    var backendName: String { get }

    /// Starts scanning (or joins the scan that runs) and returns this caller's stream of
    /// advertisements: every report, unfiltered beyond ``ScanParameters/serviceUUIDs``. The
    /// stream ends on ``stopScanning()`` or when the backend goes away.
    /// - Throws: the backend's ``BluetoothError`` (controller refused, bluetoothd not running, ...).
    func scan(_ parameters: ScanParameters) async throws(BluetoothError) -> AsyncStream<Advertisement>

    /// Ends every scan stream and stops scanning.
    func stopScanning() async

    /// Connects to the accessory and opens its data channel (the first of `services` it offers);
    /// the channel reconnects on ``DataChannel/reconnect(timeout:)``.
    /// - Throws: connection errors (timeout, refused), ``BluetoothError/notFound(detail:)`` when
    ///   it offers none of `services`; nothing stays connected on failure.
    func openDataChannel(to address: BluetoothAddress, type: BluetoothAddressType, timeout: Duration,
                         services: [DataChannelService]) async throws(BluetoothError) -> any DataChannel

    /// Connects to the accessory for setup: check what it offers, pair, disconnect.
    /// - Throws: connection errors.
    func connectForSetup(to address: BluetoothAddress, type: BluetoothAddressType,
                         timeout: Duration) async throws(BluetoothError) -> any SetupLink

    /// Stops scanning, disconnects what it connected and releases the backend.
    func close() async
}

extension BLECentral {
    /// Scans with the default parameters (active, every report).
    public func scan() async throws(BluetoothError) -> AsyncStream<Advertisement> {
        try await scan(ScanParameters())
    }
}

/// A connection made to set an accessory up (``BLECentral/connectForSetup(to:type:timeout:)``).
public protocol SetupLink: Sendable {
    /// The accessory's address.
    var address: BluetoothAddress { get }

    /// The first of `services` the accessory offers, `nil` if none.
    /// - Throws: ATT / D-Bus errors, timeouts, disconnection.
    func offeredDataChannel(among services: [DataChannelService]) async throws(BluetoothError) -> DataChannelService?

    /// The UUIDs of the primary services it offers (for "offers no known data channel"); empty
    /// when they cannot be read.
    func primaryServices() async -> [BluetoothUUID]

    /// Pairs (and bonds) with the accessory; the backend's pairing delegate asks the user.
    /// - Throws: ``SecurityError`` saying why pairing failed and what to do.
    func pair() async throws(SecurityError) -> PairingOutcome

    /// The link's pairing and encryption failures as this program's host reports them, refusals
    /// of its pairing policy (``SecurityError/refused(_:)``) included, in order, starting with
    /// one reported before this call; the stream ends after ``disconnect()``. Backends that leave
    /// pairing to the system (BlueZ) report none: ``pair()`` throws their failure.
    func securityFailures() async -> AsyncStream<SecurityError>

    /// Disconnects (best effort).
    func disconnect() async
}

extension SetupLink {
    /// No failures to report (the backend's ``pair()`` throws them).
    public func securityFailures() async -> AsyncStream<SecurityError> {
        AsyncStream { $0.finish() }
    }
}

/// What pairing produced and who keeps the keys.
public enum PairingOutcome: Sendable, Hashable {
    /// The keys, for this program's bond store (the accessory store): this program's own host.
    case keys(Bond)
    /// The system's Bluetooth daemon keeps the bond (BlueZ: `/var/lib/bluetooth`).
    case keptByBlueZ(BlueZBondSummary)
}

/// What is known about a bond BlueZ made and keeps: BlueZ's D-Bus API does not expose the keys,
/// the key size or whether Secure Connections was used.
public struct BlueZBondSummary: Sendable, Hashable, CustomStringConvertible {
    /// How the user authenticated, as the agent saw it (`nil`: BlueZ asked the agent nothing,
    /// so Just Works or the accessory's passkey display without input).
    public var method: PairingMethod?

    /// Creates a summary.
    public init(method: PairingMethod?) {
        self.method = method
    }

    /// `bond kept by BlueZ, Numeric Comparison`.
    public var description: String {
        "bond kept by BlueZ, \(method.map(\.description) ?? "Just Works")"
    }
}
