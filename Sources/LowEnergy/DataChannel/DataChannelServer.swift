public import Logging
import Synchronization

/// The data-channel services this host serves as an accessory (Qorvo NI, Nordic UART) and one
/// ``GATTServerDataChannel`` per connected central.
///
/// Each service is RX (write, write without response; what the phone writes) and TX (notify;
/// what this host sends); Qorvo NI also has its SEC characteristic (read, encrypted link, value
/// "Qorvo": reading it makes the phone pair, as with Qorvo's firmware). Writes before the phone
/// subscribed to TX are delivered (and logged); what is sent before the subscription waits for
/// it (``GATTServerDataChannel``).
///
/// ```swift
/// let services = [GATTServerService.genericAccess(name: "nearby"), .genericAttribute] + DataChannelServer.services(for: [.qorvoNI])
/// let server = try GATTServer(services: services)
/// await host.setGATTServer(server)
/// let channels = try await DataChannelServer(server: server, host: host, services: [.qorvoNI])
/// for await channel in channels.channels { ... }   // one per phone
/// ```
public final class DataChannelServer: Sendable {
    /// One channel per central that connects (made when it connects, or at its first write or
    /// subscription if that is earlier). Single consumer; finishes on ``stop()``.
    public let channels: AsyncStream<GATTServerDataChannel>
    /// The services served.
    public let services: [DataChannelService]
    private let continuation: AsyncStream<GATTServerDataChannel>.Continuation
    private let server: GATTServer
    private let logger: Logger
    private let pendingLifetime: Duration
    private let registry = Mutex<[ObjectIdentifier: GATTServerDataChannel]>([:])
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    /// Qorvo's SEC characteristic (read on an encrypted link: pairing).
    public static let qorvoSecurityCharacteristic = BluetoothUUID("2E93941C-6A61-11ED-A1EB-0242AC120002")!

    /// The GATT services for `channels` (add them to the server's database).
    public static func services(for channels: [DataChannelService]) -> [GATTServerService] {
        channels.map { channel in
            var characteristics = [
                GATTServerCharacteristic(uuid: channel.rx, properties: [.write, .writeWithoutResponse], maximumLength: 512),
                GATTServerCharacteristic(uuid: channel.tx, properties: .notify),
            ]
            if channel.service == DataChannelService.qorvoNI.service {
                characteristics.insert(
                    GATTServerCharacteristic(uuid: qorvoSecurityCharacteristic, properties: .read, value: Array("Qorvo".utf8),
                                             readSecurity: .encrypted), at: 0)
            }
            return GATTServerService(uuid: channel.service, characteristics: characteristics)
        }
    }

    /// Wires the served `services` of `server` (already in its database, see
    /// ``services(for:)``) to channels, and watches `host` for connections.
    /// - Parameters:
    ///   - server: the GATT server whose database holds `services`.
    ///   - host: the host whose connections (phones) are watched.
    ///   - services: the data channel services to wire (Nordic UART, Qorvo NI, ...).
    ///   - pendingLifetime: how long a message sent before a phone subscribed waits for the
    ///     subscription (``GATTServerDataChannel/pendingLifetime``): the phone's wait for an
    ///     answer.
    ///   - logger: where connections and channel errors are logged.
    /// - Throws: ``BluetoothError/notFound(detail:)`` if a service's RX or TX is not served.
    public init(server: GATTServer, host: BLEHost, services: [DataChannelService], pendingLifetime: Duration = .seconds(3),
                logger: Logger = Logger(label: "nearby.lowenergy.data-channel")) async throws(BluetoothError) {
        self.server = server
        self.services = services
        self.logger = logger
        self.pendingLifetime = pendingLifetime
        (channels, continuation) = AsyncStream<GATTServerDataChannel>.makeStream(bufferingPolicy: .unbounded)
        for service in services {
            guard let rx = await server.handles(of: service.rx, in: service.service),
                  let tx = await server.handles(of: service.tx, in: service.service) else {
                throw .notFound(detail: "\(service) is not in the GATT server's database; add DataChannelServer.services(for:)")
            }
            await server.setWriteHandler(for: rx.value) { [weak self] write in
                guard let self else { return .unlikelyError }
                let channel = self.channel(for: write.connection)
                if channel.received(write.value, on: service, withResponse: write.withResponse) {
                    self.logger.info("\(write.connection.peerAddress) wrote \(write.value.count) bytes to \(service.name) RX before subscribing to TX: the answer waits for its subscription")
                }
                return nil
            }
            await server.setConfigurationHandler(for: tx.value) { [weak self] connection, configuration in
                guard let self else { return }
                self.channel(for: connection).subscriptionChanged(tx: tx.value, service: service, configuration: configuration)
            }
        }
        let events = host.events()
        for connection in await host.activeConnections where connection.role == .peripheral {
            _ = channel(for: connection)
        }
        let task = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                switch event {
                case .connected(let connection) where connection.role == .peripheral:
                    _ = self.channel(for: connection)
                case .disconnected(_, let handle, let reason):
                    self.ended(handle: handle, reason: reason)
                case .transportClosed:
                    self.stop()
                    return
                default:
                    break
                }
            }
        }
        watcher.withLock { $0 = task }
    }

    /// The channel of `connection`, made (and yielded on ``channels``) the first time.
    private func channel(for connection: BLEConnection) -> GATTServerDataChannel {
        let (channel, isNew) = registry.withLock { registry -> (GATTServerDataChannel, Bool) in
            if let existing = registry[ObjectIdentifier(connection)] { return (existing, false) }
            let channel = GATTServerDataChannel(connection: connection, server: server, pendingLifetime: pendingLifetime, logger: logger)
            registry[ObjectIdentifier(connection)] = channel
            return (channel, true)
        }
        if isNew {
            logger.debug("data channel for \(connection.peerAddress) (0x\(hex(connection.handle)))")
            continuation.yield(channel)
            if let reason = connection.disconnectionReason { ended(handle: connection.handle, reason: reason) }
        }
        return channel
    }

    private func ended(handle: UInt16, reason: HCIStatus) {
        let ended = registry.withLock { registry -> [GATTServerDataChannel] in
            let keys = registry.filter { $0.value.connection.handle == handle && !$0.value.connection.isConnected }.map(\.key)
            return keys.compactMap { registry.removeValue(forKey: $0) }
        }
        for channel in ended { channel.linkEnded(reason: reason) }
    }

    /// Stops making channels; ``channels`` finishes (open channels stay).
    public func stop() {
        watcher.withLock { $0?.cancel() }
        continuation.finish()
    }
}

extension AppleNearbyInteractionService {
    /// Apple's NI service as this host serves it: the single-configuration characteristic
    /// (`95E8D9D5-…`, read on an encrypted link, as Qorvo's firmware) holding
    /// `configurationData`, the accessory configuration data without its 0x01 message ID.
    /// The multiple-configuration characteristic is not served: its layout is not public.
    public static func serverService(configurationData: [UInt8]) -> GATTServerService {
        GATTServerService(uuid: service, characteristics: [
            GATTServerCharacteristic(uuid: singleConfiguration, properties: .read, value: configurationData, readSecurity: .encrypted)
        ])
    }
}
