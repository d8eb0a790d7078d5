import NearbySupport

/// A ``DataChannel`` over GATT: messages are written to the service's RX characteristic and
/// arrive as notifications of its TX characteristic (Nordic UART, Qorvo NI; see
/// ``DataChannelService``).
///
/// Opening discovers the first offered service of the preference list, its RX and TX
/// characteristics and TX's CCCD, and subscribes once. After a link loss, ``reconnect(timeout:)``
/// connects again and subscribes exactly once on the new connection (the old subscription died
/// with its connection), so no message is delivered twice.
public actor GATTDataChannel: DataChannel {
    /// The host the channel connects through.
    public nonisolated let host: BLEHost
    /// The accessory's address.
    public nonisolated let address: BluetoothAddress
    /// The accessory's address type.
    public nonisolated let addressType: BluetoothAddressType
    /// Messages from the accessory (one per notification). Single consumer; finishes on ``close()``.
    public nonisolated let messages: AsyncStream<[UInt8]>
    /// Link events. Single consumer; finishes on ``close()``.
    public nonisolated let events: AsyncStream<DataChannelEvent>
    private let messageContinuation: AsyncStream<[UInt8]>.Continuation
    private let eventContinuation: AsyncStream<DataChannelEvent>.Continuation

    /// The service in use (set once open).
    public private(set) var service: DataChannelService?
    /// The current connection (`nil` while the link is down).
    public private(set) var connection: BLEConnection?
    /// How many times a subscription was made (one per connection; for diagnostics and tests).
    public private(set) var subscriptionCount = 0
    /// Why the link last went down.
    public private(set) var lastDisconnectionReason: HCIStatus?

    private let preferredServices: [DataChannelService]
    private let preferredWriteType: GATTWriteType
    private let options: ConnectionOptions
    private var rx: GATTCharacteristic?
    private var writeType: GATTWriteType = .withResponse
    private var forwardTask: Task<Void, Never>?
    private var watchTask: Task<Void, Never>?
    private var closed = false
    private let reconnectLock = AsyncLock()

    private init(host: BLEHost, address: BluetoothAddress, addressType: BluetoothAddressType,
                 services: [DataChannelService], writeType: GATTWriteType, options: ConnectionOptions) {
        self.host = host
        self.address = address
        self.addressType = addressType
        self.preferredServices = services
        self.preferredWriteType = writeType
        self.options = options
        (messages, messageContinuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        (events, eventContinuation) = AsyncStream<DataChannelEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Opens a channel on an established connection.
    /// - Parameters:
    ///   - connection: the connection to the accessory (this host is the central).
    ///   - host: the host that owns `connection` (for reconnecting).
    ///   - services: the services to look for, in order of preference.
    ///   - writeType: how messages are written (with response by default, like Apple's sample;
    ///     falls back to the other kind if RX supports only that).
    ///   - options: used by ``reconnect(timeout:)``.
    /// - Throws: ``BluetoothError/notFound(detail:)`` if the accessory offers none of `services`
    ///   or lacks RX/TX/CCCD, ATT errors, disconnection.
    public static func open(on connection: BLEConnection, host: BLEHost,
                            services: [DataChannelService] = DataChannelService.known,
                            writeType: GATTWriteType = .withResponse,
                            options: ConnectionOptions = ConnectionOptions()) async throws(BluetoothError) -> GATTDataChannel {
        let channel = GATTDataChannel(host: host, address: connection.peerAddress, addressType: connection.peerAddressType,
                                      services: services, writeType: writeType, options: options)
        try await channel.setUp(connection)
        return channel
    }

    /// Connects to the accessory and opens a channel.
    /// - Throws: connection errors (see ``BLEHost/connect(to:type:timeout:options:)``) and those of
    ///   ``open(on:host:services:writeType:options:)``; the connection is closed again on failure.
    public static func connect(host: BLEHost, address: BluetoothAddress, type: BluetoothAddressType,
                               timeout: Duration = .seconds(10),
                               services: [DataChannelService] = DataChannelService.known,
                               writeType: GATTWriteType = .withResponse,
                               options: ConnectionOptions = ConnectionOptions()) async throws(BluetoothError) -> GATTDataChannel {
        let connection = try await host.connect(to: address, type: type, timeout: timeout, options: options)
        do {
            return try await open(on: connection, host: host, services: services, writeType: writeType, options: options)
        } catch {
            _ = try? await connection.disconnect()
            throw error
        }
    }

    /// ATT_MTU - 3 of the current connection (20 while disconnected).
    public var maximumMessageLength: Int {
        (connection?.mtu ?? attDefaultMTU) - 3
    }

    /// Sends one message as one write to RX.
    /// - Throws: see ``DataChannel/send(_:)``.
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        guard !closed else { throw .notReady(detail: "the data channel to \(address) is closed") }
        guard let connection, connection.isConnected, let rx else {
            throw .disconnected(reason: lastDisconnectionReason ?? .connectionTimeout)
        }
        let maximum = connection.mtu - 3
        guard message.count <= maximum else { throw .messageTooLong(length: message.count, maximum: maximum) }
        try await connection.gatt.write(message, to: rx, type: writeType)
    }

    /// Connects again after a link loss and subscribes once; no-op while connected.
    /// - Throws: connection and discovery errors; the channel stays disconnected.
    public func reconnect(timeout: Duration = .seconds(10)) async throws(BluetoothError) {
        guard !closed else { throw .notReady(detail: "the data channel to \(address) is closed") }
        // Concurrent calls: the second waits for the first and finds the link up (one
        // subscription per connection, never two).
        do {
            try await reconnectLock.lock()
        } catch {
            throw .cancelled(operation: "reconnecting to \(address)")
        }
        defer { reconnectLock.unlock() }
        guard !closed else { throw .notReady(detail: "the data channel to \(address) is closed") }
        if let connection, connection.isConnected { return }
        let connection = try await host.connect(to: address, type: addressType, timeout: timeout, options: options)
        do {
            try await setUp(connection)
        } catch {
            _ = try? await connection.disconnect()
            throw error
        }
        eventContinuation.yield(.reconnected(maximumMessageLength: connection.mtu - 3))
    }

    /// Disconnects and finishes ``messages`` and ``events``.
    public func close() async {
        guard !closed else { return }
        closed = true
        watchTask?.cancel()
        if let connection { _ = try? await connection.disconnect() }
        connection = nil
        forwardTask?.cancel()
        messageContinuation.finish()
        eventContinuation.finish()
    }

    private func setUp(_ connection: BLEConnection) async throws(BluetoothError) {
        // Subscribed first: discovery and subscribing may make the link pair (an ATT security
        // error), and its refusals must reach the channel's events too.
        let events = connection.events()
        // Encrypting while connecting may already have failed (the accessory forgot the bond).
        if let error = await connection.security.lastError { eventContinuation.yield(.security(error)) }
        let gatt = connection.gatt
        guard let (definition, gattService) = try await DataChannelService.find(on: gatt, among: preferredServices) else {
            throw .notFound(detail: "\(address) offers none of the data-channel services \(preferredServices.map(\.description).joined(separator: ", "))")
        }
        let characteristics = try await gatt.discoverCharacteristics(of: gattService)
        guard let rx = characteristics.first(where: { $0.uuid == definition.rx }),
              !rx.properties.isDisjoint(with: [.write, .writeWithoutResponse]) else {
            throw .notFound(detail: "\(definition.name) on \(address) has no writable RX characteristic \(definition.rx)")
        }
        guard let tx = characteristics.first(where: { $0.uuid == definition.tx }),
              !tx.properties.isDisjoint(with: [.notify, .indicate]) else {
            throw .notFound(detail: "\(definition.name) on \(address) has no notifying TX characteristic \(definition.tx)")
        }
        let kind: GATTSubscriptionKind = tx.properties.contains(.notify) ? .notifications : .indications
        let subscription = try await gatt.subscribe(to: tx, kind: kind)
        subscriptionCount += 1
        switch preferredWriteType {
        case .withResponse: writeType = rx.properties.contains(.write) ? .withResponse : .withoutResponse
        case .withoutResponse: writeType = rx.properties.contains(.writeWithoutResponse) ? .withoutResponse : .withResponse
        }
        self.service = definition
        self.rx = rx
        self.connection = connection
        // The previous connection's forwarder ends by itself once it has delivered everything
        // that arrived before the link went down; wait for it so messages stay in order.
        let previous = forwardTask
        let messages = messageContinuation
        forwardTask = Task {
            await previous?.value
            for await value in subscription.values {
                messages.yield(value)
            }
        }
        watchTask?.cancel()
        watchTask = Task {
            for await event in events {
                switch event {
                case .disconnected(let reason):
                    self.linkLost(connection, reason: reason)
                case .securityFailed(let error):
                    self.securityFailed(connection, error)
                default:
                    break
                }
            }
        }
    }

    private func securityFailed(_ on: BLEConnection, _ error: SecurityError) {
        guard !closed, connection === on else { return }
        eventContinuation.yield(.security(error))
    }

    private func linkLost(_ lost: BLEConnection, reason: HCIStatus) {
        guard !closed, connection === lost else { return }
        connection = nil
        lastDisconnectionReason = reason
        eventContinuation.yield(.disconnected(reason: reason))
    }
}
