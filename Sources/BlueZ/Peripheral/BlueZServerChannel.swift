public import LowEnergy
import Synchronization

/// One phone's data channel when this host is the accessory through BlueZ: the phone's writes
/// to RX arrive as `WriteValue` calls on this program's characteristic (with the phone's device
/// object and the MTU in the options), this host's messages go out through the socket BlueZ
/// got from `AcquireNotify` (or as `Value` changes after `StartNotify`). The phone owns the link.
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

    struct State {
        var mtu = 23
        var subscribed = false
        var closed = false
        var ended = false
        var refusedWrites = 0
    }

    let state = Mutex(State())

    init(peerAddress: BluetoothAddress, devicePath: String, application: BlueZApplication, bluez: BlueZConnection) {
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

    /// Writes refused because the phone had not subscribed to TX.
    public var refusedWrites: Int { state.withLock { $0.refusedWrites } }

    /// Notifies one message.
    /// - Throws: ``LowEnergy/BluetoothError/notReady(detail:)`` before the phone subscribed or
    ///   after ``close()``, ``LowEnergy/BluetoothError/messageTooLong(length:maximum:)``,
    ///   ``LowEnergy/BluetoothError/disconnected(reason:)``.
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        let (subscribed, closed, ended, mtu) = state.withLock { ($0.subscribed, $0.closed, $0.ended, $0.mtu) }
        if closed { throw .notReady(detail: "the data channel to \(peerAddress) is closed") }
        if ended { throw .disconnected(reason: .unspecifiedError) }
        guard subscribed else { throw .notReady(detail: "\(peerAddress) has not subscribed to the data channel's TX characteristic") }
        guard message.count <= mtu - 3 else { throw .messageTooLong(length: message.count, maximum: mtu - 3) }
        try await application.notify(message)
    }

    /// Not possible from this side: a phone reconnects by itself.
    public func reconnect(timeout: Duration) async throws(BluetoothError) {
        if !state.withLock({ $0.ended }) { return }
        throw .notReady(detail: "\(peerAddress) disconnected; a phone reconnects by itself (the host advertises again)")
    }

    /// Disconnects the phone and finishes both streams.
    public func close() async {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        _ = try? await bluez.rawCall(devicePath, BlueZName.device, "Disconnect", timeout: .seconds(10))
        messageContinuation.finish()
        eventContinuation.finish()
    }

    // MARK: From the application

    /// A write to RX; `false` (refused) before the phone subscribed to TX.
    func received(_ value: [UInt8], mtu: Int?) -> Bool {
        let subscribed = state.withLock { state -> Bool in
            if let mtu, mtu >= 23 { state.mtu = mtu }
            if !state.subscribed { state.refusedWrites += 1 }
            return state.subscribed
        }
        guard subscribed else { return false }
        messageContinuation.yield(value)
        return true
    }

    func subscribed(_ on: Bool, mtu: Int?) {
        state.withLock { state in
            state.subscribed = on
            if let mtu, mtu >= 23 { state.mtu = mtu }
        }
    }

    func linkEnded(reason: HCIStatus) {
        let first = state.withLock { state -> Bool in
            defer { state.ended = true; state.subscribed = false }
            return !state.ended
        }
        guard first else { return }
        eventContinuation.yield(.disconnected(reason: reason))
        messageContinuation.finish()
        eventContinuation.finish()
    }
}
