import Synchronization

/// One end of a connected pair of in-memory ``DataChannel``s: what one end sends, the other
/// receives, with the same rules as GATT (a message longer than ``maximumMessageLength`` is an
/// error, nothing is sent while the link is down).
///
/// For the `Simulation` module (the accessory side of the NI protocol) and for tests. Link loss
/// is simulated with ``simulateLinkLoss(reason:)``; either end can ``reconnect(timeout:)``.
public final class InMemoryDataChannel: DataChannel {
    private struct State {
        var up = true
        var closed = [false, false]
        var maximumMessageLength: Int
        var messageContinuations: [AsyncStream<[UInt8]>.Continuation]
        var eventContinuations: [AsyncStream<DataChannelEvent>.Continuation]
        var lastReason: HCIStatus?
    }

    private final class Link: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    /// Messages from the other end. Single consumer; finishes on ``close()``.
    public let messages: AsyncStream<[UInt8]>
    /// Link events. Single consumer; finishes on ``close()``.
    public let events: AsyncStream<DataChannelEvent>
    private let link: Link
    private let side: Int

    private init(link: Link, side: Int, messages: AsyncStream<[UInt8]>, events: AsyncStream<DataChannelEvent>) {
        self.link = link
        self.side = side
        self.messages = messages
        self.events = events
    }

    /// Creates two connected ends (e.g. the app side and the simulated accessory side).
    /// - Parameter maximumMessageLength: the longest message either end may send (244 = an
    ///   ATT_MTU of 247 minus 3).
    public static func makePair(maximumMessageLength: Int = 244) -> (InMemoryDataChannel, InMemoryDataChannel) {
        let (messagesA, messageContinuationA) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        let (messagesB, messageContinuationB) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        let (eventsA, eventContinuationA) = AsyncStream<DataChannelEvent>.makeStream(bufferingPolicy: .unbounded)
        let (eventsB, eventContinuationB) = AsyncStream<DataChannelEvent>.makeStream(bufferingPolicy: .unbounded)
        let link = Link(State(
            maximumMessageLength: maximumMessageLength,
            messageContinuations: [messageContinuationA, messageContinuationB],
            eventContinuations: [eventContinuationA, eventContinuationB]))
        return (InMemoryDataChannel(link: link, side: 0, messages: messagesA, events: eventsA),
                InMemoryDataChannel(link: link, side: 1, messages: messagesB, events: eventsB))
    }

    /// The longest message ``send(_:)`` accepts, bytes (shared by both ends).
    public var maximumMessageLength: Int { link.state.withLock { $0.maximumMessageLength } }

    /// Changes ``maximumMessageLength`` for both ends (e.g. to simulate a small MTU).
    public func setMaximumMessageLength(_ length: Int) {
        link.state.withLock { $0.maximumMessageLength = length }
    }

    /// `true` while the link is up and neither end closed.
    public var isConnected: Bool { link.state.withLock { $0.up && !$0.closed.contains(true) } }

    /// Delivers `message` to the other end.
    /// - Throws: ``BluetoothError/messageTooLong(length:maximum:)``,
    ///   ``BluetoothError/disconnected(reason:)`` while the link is down or the other end closed,
    ///   ``BluetoothError/notReady(detail:)`` after this end's ``close()``.
    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        let side = side
        enum Outcome { case sent, closed, down(HCIStatus), tooLong(Int) }
        let outcome: Outcome = link.state.withLock { state in
            if state.closed[side] { return .closed }
            if !state.up || state.closed[1 - side] { return .down(state.lastReason ?? .remoteUserTerminatedConnection) }
            guard message.count <= state.maximumMessageLength else { return .tooLong(state.maximumMessageLength) }
            state.messageContinuations[1 - side].yield(message)
            return .sent
        }
        switch outcome {
        case .sent: return
        case .closed: throw .notReady(detail: "this in-memory data channel is closed")
        case .down(let reason): throw .disconnected(reason: reason)
        case .tooLong(let maximum): throw .messageTooLong(length: message.count, maximum: maximum)
        }
    }

    /// Takes the link down: both ends get ``DataChannelEvent/disconnected(reason:)``.
    public func simulateLinkLoss(reason: HCIStatus = .connectionTimeout) {
        let targets: [AsyncStream<DataChannelEvent>.Continuation] = link.state.withLock { state in
            guard state.up else { return [] }
            state.up = false
            state.lastReason = reason
            return state.eventContinuations
        }
        for continuation in targets { continuation.yield(.disconnected(reason: reason)) }
    }

    /// Brings the link back up after ``simulateLinkLoss(reason:)``: both ends get
    /// ``DataChannelEvent/reconnected(maximumMessageLength:)``. No-op while up.
    /// - Throws: ``BluetoothError/disconnected(reason:)`` if the other end closed,
    ///   ``BluetoothError/notReady(detail:)`` if this end closed.
    public func reconnect(timeout: Duration = .seconds(10)) async throws(BluetoothError) {
        let side = side
        enum Outcome { case none, closed, peerClosed, up([AsyncStream<DataChannelEvent>.Continuation], Int) }
        let outcome: Outcome = link.state.withLock { state in
            if state.closed[side] { return .closed }
            if state.closed[1 - side] { return .peerClosed }
            if state.up { return .none }
            state.up = true
            return .up(state.eventContinuations, state.maximumMessageLength)
        }
        switch outcome {
        case .none: return
        case .closed: throw .notReady(detail: "this in-memory data channel is closed")
        case .peerClosed: throw .disconnected(reason: .remoteUserTerminatedConnection)
        case .up(let continuations, let maximum):
            for continuation in continuations { continuation.yield(.reconnected(maximumMessageLength: maximum)) }
        }
    }

    /// Closes this end: its streams finish; the other end gets
    /// ``DataChannelEvent/disconnected(reason:)`` with 0x13 (remote user terminated).
    public func close() async {
        let side = side
        let (own, ownEvents, peerEvents): (AsyncStream<[UInt8]>.Continuation?, AsyncStream<DataChannelEvent>.Continuation?,
                                           AsyncStream<DataChannelEvent>.Continuation?) = link.state.withLock { state in
            guard !state.closed[side] else { return (nil, nil, nil) }
            state.closed[side] = true
            let notifyPeer = state.up && !state.closed[1 - side]
            if notifyPeer { state.lastReason = .remoteUserTerminatedConnection }
            return (state.messageContinuations[side], state.eventContinuations[side],
                    notifyPeer ? state.eventContinuations[1 - side] : nil)
        }
        peerEvents?.yield(.disconnected(reason: .remoteUserTerminatedConnection))
        own?.finish()
        ownEvents?.finish()
    }
}
