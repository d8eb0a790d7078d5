/// A GATT service that carries a message channel: the central writes RX, the accessory
/// notifies TX (specs/reference/ni-accessory-protocol.md §2).
public struct DataChannelService: Sendable, Hashable, CustomStringConvertible {
    /// A short name: "Nordic UART", "Qorvo NI".
    public var name: String
    /// The service UUID (what the accessory advertises).
    public var service: BluetoothUUID
    /// The characteristic the central writes messages to.
    public var rx: BluetoothUUID
    /// The characteristic the accessory notifies messages on.
    public var tx: BluetoothUUID

    /// Creates a service definition.
    public init(name: String, service: BluetoothUUID, rx: BluetoothUUID, tx: BluetoothUUID) {
        self.name = name
        self.service = service
        self.rx = rx
        self.tx = tx
    }

    /// Nordic UART Service `6E400001-…`: Apple's NI sample, Estimote, Truesense, nrfuwb, ...
    public static let nordicUART = DataChannelService(
        name: "Nordic UART",
        service: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!,
        rx: BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")!,
        tx: BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")!)

    /// Qorvo QANI "QNIS" `2E938FD0-…` (its SEC characteristic `2E93941C-…` needs pairing).
    public static let qorvoNI = DataChannelService(
        name: "Qorvo NI",
        service: BluetoothUUID("2E938FD0-6A61-11ED-A1EB-0242AC120002")!,
        rx: BluetoothUUID("2E93998A-6A61-11ED-A1EB-0242AC120002")!,
        tx: BluetoothUUID("2E939AF2-6A61-11ED-A1EB-0242AC120002")!)

    /// The known data-channel services, in order of preference.
    public static let known: [DataChannelService] = [.nordicUART, .qorvoNI]

    /// `"Nordic UART (6E400001-B5A3-F393-E0A9-E50E24DCCA9E)"`.
    public var description: String { "\(name) (\(service))" }

    /// The first of `services` the accessory on `connection` offers (one Find By Type Value
    /// request per candidate), or `nil` if it offers none: how to check that a picked accessory
    /// can carry the NI data channel.
    /// - Throws: ATT errors, timeouts, disconnection.
    public static func offered(on connection: BLEConnection,
                               among services: [DataChannelService] = known) async throws(BluetoothError) -> DataChannelService? {
        try await find(on: connection.gatt, among: services)?.definition
    }

    /// The first of `services` found on the server, with its handles.
    static func find(on gatt: GATTClient, among services: [DataChannelService]) async throws(BluetoothError)
        -> (definition: DataChannelService, service: GATTService)? {
        for candidate in services {
            if let service = try await gatt.discoverPrimaryServices(uuid: candidate.service).first {
                return (candidate, service)
            }
        }
        return nil
    }
}

/// Apple's Nearby Interaction GATT service (iOS 16+ background ranging): read-only
/// characteristics holding the accessory configuration data without its 0x01 message ID.
/// It is not a message channel; read it with ``GATTClient/read(_:)``.
public enum AppleNearbyInteractionService {
    /// The service UUID `48FE3E40-0817-4BB2-8633-3073689C2DBA`.
    public static let service = BluetoothUUID("48FE3E40-0817-4BB2-8633-3073689C2DBA")!
    /// The single-configuration characteristic `95E8D9D5-…` (read).
    public static let singleConfiguration = BluetoothUUID("95E8D9D5-D8EF-4721-9A4E-807375F53328")!
    /// The multiple-configuration characteristic `1176CF7B-…` (read).
    public static let multipleConfiguration = BluetoothUUID("1176CF7B-BED2-4690-BD69-5F34001E820C")!
}
