import NearbySupport
import Synchronization

/// A ``DataChannel`` to one central (a phone) connected to this host: its writes to a served
/// data-channel service's RX characteristic are the ``messages``; ``send(_:)`` notifies the TX
/// characteristic it subscribed to. Made by a ``DataChannelServer``, one per connection.
///
/// The phone owns the link: ``reconnect(timeout:)`` is not possible (a phone that comes back
/// makes a new connection, and so a new channel). When the link ends, ``events`` reports it and
/// both streams finish.
public final class GATTServerDataChannel: DataChannel {
    /// The connection to the phone.
    public let connection: BLEConnection
    /// Writes to RX, in order, one message each (the newest 256 are kept if the consumer falls
    /// behind). Single consumer; finishes when the link ends or on ``close()``.
    public let messages: AsyncStream<[UInt8]>
    /// Link events (only ``DataChannelEvent/disconnected(reason:)``). Single consumer.
    public let events: AsyncStream<DataChannelEvent>

    private let server: GATTServer
    private let messageContinuation: AsyncStream<[UInt8]>.Continuation
    private let eventContinuation: AsyncStream<DataChannelEvent>.Continuation
    private struct State {
        /// The TX value handle the phone subscribed to (notifications), `nil` before.
        var tx: UInt16?
        var service: DataChannelService?
        var closed = false
        var refusedWrites = 0
    }
    private let state = Mutex(State())

    init(connection: BLEConnection, server: GATTServer) {
        self.connection = connection
        self.server = server
        (messages, messageContinuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(256))
        (events, eventContinuation) = AsyncStream<DataChannelEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    /// The phone's address.
    public var peerAddress: BluetoothAddress { connection.peerAddress }

    /// The service whose TX the phone subscribed to, `nil` before it subscribed.
    public var service: DataChannelService? { state.withLock { $0.service } }

    /// `true` once the phone enabled notifications of a TX characteristic (and not disabled them).
    public var isSubscribed: Bool { state.withLock { $0.tx != nil } }

    /// Writes refused because the phone had not subscribed yet.
    public var refusedWrites: Int { state.withLock { $0.refusedWrites } }

    /// ATT_MTU − 3 of the connection.
    public var maximumMessageLength: Int { connection.mtu - 3 }

    /// Notifies one message on the subscribed TX characteristic.
    /// - Throws: ``BluetoothError/notReady(detail:)`` before the phone subscribed or after
    ///   ``close()``, ``BluetoothError/messageTooLong(length:maximum:)`` above ATT_MTU − 3,
    ///   ``BluetoothError/disconnected(reason:)``.
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        let (tx, closed) = state.withLock { ($0.tx, $0.closed) }
        if closed { throw .notReady(detail: "the data channel to \(peerAddress) is closed") }
        guard let tx else {
            if let reason = connection.disconnectionReason { throw .disconnected(reason: reason) }
            throw .notReady(detail: "\(peerAddress) has not subscribed to the data channel's TX characteristic")
        }
        try await server.notify(message, handle: tx, on: connection)
    }

    /// Not possible from this side.
    /// - Throws: ``BluetoothError/notReady(detail:)`` always (while the link is up: nothing to do).
    public func reconnect(timeout: Duration) async throws(BluetoothError) {
        if connection.isConnected { return }
        throw .notReady(detail: "\(peerAddress) disconnected; a phone reconnects by itself (the host keeps advertising)")
    }

    /// Disconnects the phone and finishes both streams.
    public func close() async {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        _ = try? await connection.disconnect()
        messageContinuation.finish()
        eventContinuation.finish()
    }

    // MARK: Called by the DataChannelServer

    /// A write to RX: delivered, or refused with 0xFD before a subscription.
    func received(_ value: [UInt8], on service: DataChannelService, withResponse: Bool) -> ATTErrorCode? {
        let subscribed = state.withLock { state -> Bool in
            if state.tx == nil { state.refusedWrites += 1 }
            return state.tx != nil
        }
        guard subscribed else { return .clientConfigurationImproperlyConfigured }
        messageContinuation.yield(value)
        return nil
    }

    /// The phone changed its TX subscription.
    func subscriptionChanged(tx: UInt16, service: DataChannelService, configuration: GATTClientConfiguration) {
        state.withLock { state in
            if configuration.contains(.notifications) {
                state.tx = tx
                state.service = service
            } else if state.tx == tx {
                state.tx = nil
            }
        }
    }

    /// The link ended.
    func linkEnded(reason: HCIStatus) {
        state.withLock { $0.tx = nil }
        eventContinuation.yield(.disconnected(reason: reason))
        messageContinuation.finish()
        eventContinuation.finish()
    }
}
