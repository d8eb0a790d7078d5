public import LowEnergy
import Synchronization

/// One phone's data channel when this host is the accessory through BlueZ: the phone's writes
/// to RX arrive as `WriteValue` calls on this program's characteristic (with the phone's device
/// object and the MTU in the options), this host's messages go out through the socket BlueZ
/// got from `AcquireNotify` (or as `Value` changes after `StartNotify`). The phone owns the link.
///
/// As on this program's own host (`GATTServerDataChannel`): a write before the phone
/// subscribes to TX is delivered, and what is sent before the subscription waits for it (the
/// latest message only, for ``pendingLifetime``), then goes out as the first notification.
public final class BlueZServerChannel: DataChannel {
    /// The phone's address (BlueZ's `Device1.Address`: its identity address once bonded).
    public let peerAddress: BluetoothAddress
    /// The phone's device object.
    public let devicePath: String
    /// The phone's writes to RX, in order; finishes when it disconnects or on ``close()``.
    public let messages: AsyncStream<[UInt8]>
    /// Link events; finishes with the link.
    public let events: AsyncStream<DataChannelEvent>
    private let messageContinuation: AsyncStream<[UInt8]>.Continuation
    private let eventContinuation: AsyncStream<DataChannelEvent>.Continuation
    private let application: BlueZApplication
    private let bluez: BlueZConnection
    /// How long a message sent before the phone subscribed waits for the subscription.
    public let pendingLifetime: Duration

    struct State {
        var mtu = 23
        var subscribed = false
        var closed = false
        var ended = false
        var earlyWrites = 0
        /// The latest message sent before the subscription, and until when it may go out.
        var pending: (message: [UInt8], expires: ContinuousClock.Instant)?
        var replaced = 0
        var expired = 0
    }

    let state = Mutex(State())

    init(peerAddress: BluetoothAddress, devicePath: String, application: BlueZApplication, bluez: BlueZConnection,
         pendingLifetime: Duration = .seconds(3)) {
        self.pendingLifetime = pendingLifetime
        self.peerAddress = peerAddress
        self.devicePath = devicePath
        self.application = application
        self.bluez = bluez
        (messages, messageContinuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        (events, eventContinuation) = AsyncStream<DataChannelEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    /// ATT_MTU − 3 (the MTU BlueZ reported in the phone's writes or at AcquireNotify).
    public var maximumMessageLength: Int { state.withLock { $0.mtu } - 3 }

    /// `false` once the phone disconnected or the channel was closed.
    public var isConnected: Bool { state.withLock { !$0.ended && !$0.closed } }

    /// Writes that came before the phone subscribed to TX (delivered all the same).
    public var earlyWrites: Int { state.withLock { $0.earlyWrites } }

    /// `true` while a message sent before the subscription waits for it.
    public var hasPendingMessage: Bool { state.withLock { $0.pending != nil } }

    /// Messages sent before the subscription that a newer one replaced.
    public var replacedMessages: Int { state.withLock { $0.replaced } }

    /// Messages sent before the subscription that expired before it came.
    public var expiredMessages: Int { state.withLock { $0.expired } }

    /// Notifies one message; before the phone subscribed, the message waits for the
    /// subscription (replacing one that waits), for ``pendingLifetime``.
    /// - Throws: `BluetoothError.notReady(detail:)` after ``close()``,
    ///   `BluetoothError.messageTooLong(length:maximum:)` (never held),
    ///   `BluetoothError.disconnected(reason:)`.
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        let now = ContinuousClock.now
        let lifetime = pendingLifetime
        let (subscribed, closed, ended, mtu, held) = state.withLock { state -> (Bool, Bool, Bool, Int, Bool) in
            let hold = !state.subscribed && !state.closed && !state.ended && message.count <= state.mtu - 3
            if hold {
                if state.pending != nil { state.replaced += 1 }
                state.pending = (message, now.advanced(by: lifetime))
            }
            return (state.subscribed, state.closed, state.ended, state.mtu, hold)
        }
        if held { return }
        if closed { throw .notReady(detail: "the data channel to \(peerAddress) is closed") }
        if ended { throw .disconnected(reason: .unspecifiedError) }
        guard message.count <= mtu - 3 else { throw .messageTooLong(length: message.count, maximum: mtu - 3) }
        guard subscribed else { return }
        try await application.notify(message)
    }

    /// Not possible from this side: a phone reconnects by itself.
    public func reconnect(timeout: Duration) async throws(BluetoothError) {
        if !state.withLock({ $0.ended }) { return }
        throw .notReady(detail: "\(peerAddress) disconnected; a phone reconnects by itself (the host advertises again)")
    }

    /// Disconnects the phone (unless its link already ended: the device object may carry the
    /// phone's next connection by then) and finishes both streams.
    public func close() async {
        let (first, ended) = state.withLock { state -> (Bool, Bool) in
            defer { state.closed = true }
            return (!state.closed, state.ended)
        }
        guard first else { return }
        if !ended {
            _ = try? await bluez.rawCall(devicePath, BlueZName.device, "Disconnect", timeout: .seconds(10))
        }
        messageContinuation.finish()
        eventContinuation.finish()
    }

    // MARK: From the application

    /// A write to RX: delivered (before a subscription too). Returns `true` when it came
    /// before the phone subscribed to TX.
    func received(_ value: [UInt8], mtu: Int?) -> Bool {
        let early = state.withLock { state -> Bool in
            if let mtu, mtu >= 23 { state.mtu = mtu }
            if !state.subscribed { state.earlyWrites += 1 }
            return !state.subscribed
        }
        messageContinuation.yield(value)
        return early
    }

    /// The phone subscribed (or unsubscribed); a message that waited goes out now, unless it
    /// expired. Returns `true` when one goes out, `false` when one expired.
    @discardableResult
    func subscribed(_ on: Bool, mtu: Int?) -> Bool? {
        let now = ContinuousClock.now
        let pending = state.withLock { state -> (message: [UInt8], expires: ContinuousClock.Instant)? in
            state.subscribed = on
            if let mtu, mtu >= 23 { state.mtu = mtu }
            guard on, let pending = state.pending else { return nil }
            state.pending = nil
            if now > pending.expires { state.expired += 1 }
            return pending
        }
        guard let pending else { return nil }
        guard now <= pending.expires else { return false }
        // After this call returns: AcquireNotify's reply hands BlueZ its end of the socket first
        // (what is written before waits in the socket pair).
        let application = application
        Task { try? await application.notify(pending.message) }
        return true
    }

    func linkEnded(reason: HCIStatus) {
        let first = state.withLock { state -> Bool in
            defer { state.ended = true; state.subscribed = false; state.pending = nil }
            return !state.ended
        }
        guard first else { return }
        eventContinuation.yield(.disconnected(reason: reason))
        messageContinuation.finish()
        eventContinuation.finish()
    }
}
