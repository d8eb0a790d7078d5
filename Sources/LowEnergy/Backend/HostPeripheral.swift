public import Logging
import Synchronization

/// The accessory role on this program's own host: its GATT server (GAP, GATT, the data
/// channels, Apple's NI service), ``DataChannelServer`` and ``Advertiser``.
public final class HostPeripheral: BLEPeripheral {
    /// The host (started, accepting peripheral connections).
    public let host: BLEHost
    private let logger: Logger
    private let parts = Mutex<(channels: DataChannelServer?, advertiser: Advertiser?, task: Task<Void, Never>?)>((nil, nil, nil))
    private let closed = ClosedFlag()

    private final class ClosedFlag: Sendable {
        let value = Mutex(false)
    }

    /// Wraps `host` (open it with ``BLEHostConfiguration/acceptsPeripheralConnections`` set).
    public init(host: BLEHost, logger: Logger = Logger(label: "nearby.lowenergy")) {
        self.host = host
        self.logger = logger
        let events = host.events()
        let closed = closed
        Task {
            for await event in events {
                if case .transportClosed = event { closed.value.withLock { $0 = true } }
            }
        }
    }

    public var backendName: String { host.backendName }

    /// No limit of its own: the advertiser pauses at ``PeripheralServices/maximumConnections``.
    public var maximumConnections: Int { 8 }

    public var isClosed: Bool { closed.value.withLock { $0 } }

    /// The advertiser, once started (its events say when it pauses and resumes).
    public var advertiser: Advertiser? { parts.withLock { $0.advertiser } }

    public func advertisedAddress() async -> BluetoothAddress? { await host.ownAddress }

    public func start(_ services: PeripheralServices) async throws(BluetoothError) -> AsyncStream<PeripheralLink> {
        var gattServices = [GATTServerService.genericAccess(name: services.name), .genericAttribute]
            + DataChannelServer.services(for: services.dataChannels)
        if let data = services.appleConfigurationData {
            gattServices.append(AppleNearbyInteractionService.serverService(configurationData: data))
        }
        let server = try GATTServer(services: gattServices, logger: logger)
        await host.setGATTServer(server)
        let channels = try await DataChannelServer(
            server: server, host: host, services: services.dataChannels, pendingLifetime: services.pendingAnswerLifetime, logger: logger)
        let advertiser = Advertiser(host: host, configuration: services.advertising, logger: logger)
        let (links, continuation) = AsyncStream<PeripheralLink>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            for await channel in channels.channels {
                let connection = channel.connection
                let bond = await connection.security.storedBond()
                let peer = (bond?.peerIdentity.address ?? connection.peerAddress).description
                continuation.yield(PeripheralLink(channel: channel, peer: peer))
            }
            continuation.finish()
        }
        parts.withLock { $0 = (channels, advertiser, task) }
        try await advertiser.start()
        return links
    }

    public func stop() async {
        let (channels, advertiser, _) = parts.withLock { $0 }
        channels?.stop()
        await advertiser?.stop()
    }

    public func close() async {
        await stop()
        await host.close()
    }
}
