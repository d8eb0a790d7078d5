import Logging
import NearbySupport
import Synchronization

/// A ``DataChannel`` to one central (a phone) connected to this host: its writes to a served
/// data-channel service's RX characteristic are the ``messages``; ``send(_:)`` notifies the TX
/// characteristic it subscribed to. Made by a ``DataChannelServer``, one per connection.
///
/// A phone may write before it subscribes to TX (Apple's sample app enables its button on
/// connection, before it enables notifications): the write is delivered, and what is sent
/// before the subscription waits for it: the latest message only (a newer one replaces it),
/// for ``pendingLifetime`` (the phone's wait for an answer); once the phone subscribes it goes
/// out as the first notification, right after the phone's configuration write is answered.
/// Nothing is sent into the void: a message that expired or that a newer one replaced is
/// counted (``expiredMessages``, ``replacedMessages``).
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

    /// How long a message sent before the phone subscribed waits for the subscription.
    public let pendingLifetime: Duration

    private let server: GATTServer
    private let logger: Logger
    private let messageContinuation: AsyncStream<[UInt8]>.Continuation
    private let eventContinuation: AsyncStream<DataChannelEvent>.Continuation
    private struct State {
        /// The TX value handle the phone subscribed to (notifications), `nil` before.
        var tx: UInt16?
        var service: DataChannelService?
        var closed = false
        var earlyWrites = 0
        /// The latest message sent before the subscription, and until when it may go out.
        var pending: (message: [UInt8], expires: ContinuousClock.Instant)?
        var replaced = 0
        var expired = 0
    }
    private let state = Mutex(State())

    init(connection: BLEConnection, server: GATTServer, pendingLifetime: Duration = .seconds(3),
         logger: Logger = Logger(label: "nearby.lowenergy.data-channel")) {
        self.connection = connection
        self.server = server
        self.pendingLifetime = pendingLifetime
        self.logger = logger
        (messages, messageContinuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(256))
        (events, eventContinuation) = AsyncStream<DataChannelEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    /// The phone's address.
    public var peerAddress: BluetoothAddress { connection.peerAddress }

    /// The service whose TX the phone subscribed to, `nil` before it subscribed.
    public var service: DataChannelService? { state.withLock { $0.service } }

    /// `true` once the phone enabled notifications of a TX characteristic (and not disabled them).
    public var isSubscribed: Bool { state.withLock { $0.tx != nil } }

    /// Writes that came before the phone subscribed to TX (delivered all the same).
    public var earlyWrites: Int { state.withLock { $0.earlyWrites } }

    /// `true` while a message waits for the phone's subscription.
    public var hasPendingMessage: Bool { state.withLock { $0.pending != nil } }

    /// Messages sent before the subscription that a newer one replaced before it went out.
    public var replacedMessages: Int { state.withLock { $0.replaced } }

    /// Messages sent before the subscription that expired (``pendingLifetime``) before the
    /// phone subscribed.
    public var expiredMessages: Int { state.withLock { $0.expired } }

    /// ATT_MTU − 3 of the connection.
    public var maximumMessageLength: Int { connection.mtu - 3 }

    /// Notifies one message on the subscribed TX characteristic; before the phone subscribed,
    /// the message waits for the subscription (replacing one that waits), for
    /// ``pendingLifetime``.
    /// - Throws: ``BluetoothError/notReady(detail:)`` after ``close()``,
    ///   ``BluetoothError/messageTooLong(length:maximum:)`` above ATT_MTU − 3 (never truncated,
    ///   never held), ``BluetoothError/disconnected(reason:)``.
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        let maximum = maximumMessageLength
        let now = ContinuousClock.now
        let outcome = state.withLock { state -> (tx: UInt16?, closed: Bool, held: Bool, replaced: Bool) in
            guard !state.closed, state.tx == nil, connection.isConnected, message.count <= maximum else {
                return (state.tx, state.closed, false, false)
            }
            let replaced = state.pending != nil
            if replaced { state.replaced += 1 }
            state.pending = (message, now.advanced(by: pendingLifetime))
            return (nil, false, true, replaced)
        }
        if outcome.held {
            let replacing = outcome.replaced ? " (replacing the message that waited)" : ""
            logger.info("\(peerAddress) has not subscribed to TX yet: \(message.count) bytes wait for its subscription\(replacing)")
            return
        }
        if outcome.closed { throw .notReady(detail: "the data channel to \(peerAddress) is closed") }
        if let reason = connection.disconnectionReason { throw .disconnected(reason: reason) }
        guard message.count <= maximum else { throw .messageTooLong(length: message.count, maximum: maximum) }
        guard let tx = outcome.tx else { return }
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

    /// A write to RX: delivered (before a subscription too). Returns `true` when it came
    /// before the phone subscribed.
    func received(_ value: [UInt8], on service: DataChannelService, withResponse: Bool) -> Bool {
        let early = state.withLock { state -> Bool in
            if state.tx == nil { state.earlyWrites += 1 }
            return state.tx == nil
        }
        messageContinuation.yield(value)
        return early
    }

    /// The phone changed its TX subscription. Returns `true` when a waiting message will go
    /// out (once the configuration write is answered), `false` when one expired.
    @discardableResult
    func subscriptionChanged(tx: UInt16, service: DataChannelService, configuration: GATTClientConfiguration) -> Bool? {
        let now = ContinuousClock.now
        let release = state.withLock { state -> Bool? in
            guard configuration.contains(.notifications) else {
                if state.tx == tx { state.tx = nil }
                return nil
            }
            state.tx = tx
            state.service = service
            guard let pending = state.pending else { return nil }
            guard now <= pending.expires else {
                state.pending = nil
                state.expired += 1
                return false
            }
            return true
        }
        if release == true {
            connection.runAfterReply { [weak self] in await self?.sendPending() }
        } else if release == false {
            logger.notice("\(peerAddress) subscribed after the waiting message expired (\(pendingLifetime)): not sent")
        }
        return release
    }

    /// Sends the message that waited for the subscription (if it still waits).
    private func sendPending() async {
        let (message, tx) = state.withLock { state -> ([UInt8]?, UInt16?) in
            defer { state.pending = nil }
            return (state.pending?.message, state.tx)
        }
        guard let message, let tx else { return }
        do {
            try await server.notify(message, handle: tx, on: connection)
            logger.debug("sent the \(message.count) bytes that waited for \(peerAddress)'s subscription")
        } catch {
            logger.notice("could not send the message that waited for \(peerAddress)'s subscription: \(error)")
        }
    }

    /// The link ended.
    func linkEnded(reason: HCIStatus) {
        state.withLock { state in
            state.tx = nil
            state.pending = nil
        }
        eventContinuation.yield(.disconnected(reason: reason))
        messageContinuation.finish()
        eventContinuation.finish()
    }
}
