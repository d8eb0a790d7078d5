import Synchronization

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

/// Tasks shared by copies of a ``HostSetupLink``.
final class SharedRelays: Sendable {
    let tasks = Mutex<[Task<Void, Never>]>([])
}

/// A setup connection of this program's own host: GATT discovery, its Security Manager.
public struct HostSetupLink: SetupLink {
    /// The connection.
    public let connection: BLEConnection

    /// The tasks relaying ``securityFailures()``.
    private let relays = SharedRelays()

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

    /// The connection's ``ConnectionEvent/securityFailed(_:)`` events (its last error first);
    /// they end with the link, or at ``disconnect()`` if the link outlives it.
    public func securityFailures() async -> AsyncStream<SecurityError> {
        let events = connection.events()
        let earlier = await connection.security.lastError
        let (stream, continuation) = AsyncStream.makeStream(of: SecurityError.self, bufferingPolicy: .bufferingNewest(64))
        if let earlier { continuation.yield(earlier) }
        let relay = Task {
            for await event in events {
                if case .securityFailed(let error) = event { continuation.yield(error) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        relays.tasks.withLock { $0.append(relay) }
        return stream
    }

    public func disconnect() async {
        _ = try? await connection.disconnect()
        // Still connected (the disconnection failed): end the relays, which would wait for the link.
        if connection.isConnected { relays.tasks.withLock { $0.forEach { $0.cancel() } } }
    }
}
