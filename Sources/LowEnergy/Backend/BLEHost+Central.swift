/// This program's own host as a ``BLECentral``: GATT data channels over its connections.
extension BLEHost: BLECentral {
    /// The transport's name (`hci:0`, `tcp:127.0.0.1:5000`, `serial:/dev/ttyACM0@1000000`).
    public nonisolated var backendName: String { hci.transport.name }

    /// ``GATTDataChannel/connect(host:address:type:timeout:services:writeType:options:)``.
    public func openDataChannel(to address: BluetoothAddress, type: BluetoothAddressType, timeout: Duration,
                                services: [DataChannelService]) async throws(BluetoothError) -> any DataChannel {
        try await GATTDataChannel.connect(host: self, address: address, type: type, timeout: timeout, services: services)
    }

    /// Connects (``connect(to:type:timeout:options:)``) for setup.
    public func connectForSetup(to address: BluetoothAddress, type: BluetoothAddressType,
                                timeout: Duration) async throws(BluetoothError) -> any SetupLink {
        HostSetupLink(connection: try await connect(to: address, type: type, timeout: timeout))
    }
}

/// A setup connection of this program's own host: GATT discovery, its Security Manager.
public struct HostSetupLink: SetupLink {
    /// The connection.
    public let connection: BLEConnection

    /// Wraps `connection`.
    public init(connection: BLEConnection) {
        self.connection = connection
    }

    public var address: BluetoothAddress { connection.peerAddress }

    public func offeredDataChannel(among services: [DataChannelService]) async throws(BluetoothError) -> DataChannelService? {
        try await DataChannelService.offered(on: connection, among: services)
    }

    public func primaryServices() async -> [BluetoothUUID] {
        (try? await connection.gatt.discoverPrimaryServices().map(\.uuid)) ?? []
    }

    public func pair() async throws(SecurityError) -> PairingOutcome {
        .keys(try await connection.security.pair())
    }

    public func disconnect() async {
        _ = try? await connection.disconnect()
    }
}
