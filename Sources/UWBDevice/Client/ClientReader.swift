import Logging
import NearbySupport
import Synchronization
import UCI

/// The receiving half of a ``UCIClient``, run on the transport's own thread (the packet
/// stream's receiver): each packet is dispatched on its header, an unsegmented SESSION_INFO_NTF
/// is decoded in place and its samples handed to their session's sink right there, and every
/// other message goes to the client's actor through a bounded queue (``ControlInput``).
///
/// Range data is routed by session token, as AOSP uwb_core's session manager does: the table is
/// kept by the actor (sessions mapped on SESSION_INIT, unmapped when closed, deinitialized or
/// reset) and read here under one lock, so once a session is unmapped none of its samples
/// reaches its sink any more; data for a token that is not mapped is dropped and counted
/// (``unrouted``).
final class ClientReader: Sendable {
    /// What the actor handles, in arrival order.
    enum ControlInput: Sendable {
        /// A whole message; `interrupted` is the partial message a DEVICE_STATUS_NTF(ERROR) cut
        /// off; `receivedAt` the receive time its transport gave its last packet, if any (range
        /// data decoded by the actor is stamped with it).
        case message(UCIRawMessage, interrupted: (message: UCIRawMessage, segments: Int)?, receivedAt: Double?)
        /// Range data for a session that is not mapped (logged and reported by the actor).
        case unknownSession(UInt32, UCIRawMessage?)
        /// A packet that could not be dispatched.
        case undecodable(UCIError)
        /// The transport's stream ended (with this error, if any).
        case ended((any Error)?)
    }

    private struct State {
        var generation = 0
        var reassembler = UCIReassembler()
        var routes: [UInt32: SessionRoute] = [:]
        var closedTokens: Set<UInt32> = []
        var unrouted = 0
        var control: Mailbox<ControlInput>?
    }

    private let state = Mutex(State())
    private let logger: Logger
    private let dialect: UCIMeasurementDialect
    /// Control messages that may wait for the actor; beyond, the oldest is dropped and counted.
    static let controlCapacity = 1024

    init(logger: Logger, dialect: UCIMeasurementDialect) {
        self.logger = logger
        self.dialect = dialect
    }

    // MARK: The actor's side

    /// Starts reading a new stream: the previous one is ignored from now on, the reassembler is
    /// emptied. Returns the generation to tag the stream's deliveries with and the queue of
    /// control messages.
    func start() -> (generation: Int, control: Mailbox<ControlInput>) {
        let control = Mailbox<ControlInput>(capacity: Self.controlCapacity)
        let (generation, previous) = state.withLock { state in
            state.generation += 1
            state.reassembler.reset()
            let previous = state.control
            state.control = control
            return (state.generation, previous)
        }
        previous?.finish()
        return (generation, control)
    }

    /// Ignores the current stream from now on (closing, reconnecting).
    func invalidate() {
        let previous = state.withLock { state in
            state.generation += 1
            defer { state.control = nil }
            return state.control
        }
        previous?.finish()
    }

    /// `true` if `generation` is the stream being read.
    func isCurrent(_ generation: Int) -> Bool { state.withLock { $0.generation == generation } }

    /// Drops any partly reassembled message (before a reset).
    func resetReassembler() { state.withLock { $0.reassembler.reset() } }


    /// Routes `token`'s range data to `route` from now on (replacing `previousToken`'s route).
    func map(_ token: UInt32, to route: SessionRoute, replacing previousToken: UInt32?) {
        state.withLock { state in
            if let previousToken, previousToken != token, state.routes[previousToken]?.id == route.id {
                state.routes[previousToken] = nil
            }
            state.closedTokens.remove(token)
            state.routes[token] = route
        }
    }

    /// `true` if `token` routes to session `id`.
    func routes(_ token: UInt32, to id: UInt32) -> Bool { state.withLock { $0.routes[token]?.id == id } }

    /// The session `token` routes to, if any.
    func session(for token: UInt32) -> UInt32? { state.withLock { $0.routes[token]?.id } }

    /// The route of `token`, if any.
    func route(for token: UInt32) -> SessionRoute? { state.withLock { $0.routes[token] } }

    /// `true` if `token` belonged to a session that was closed here.
    func wasClosed(_ token: UInt32) -> Bool { state.withLock { $0.closedTokens.contains(token) } }

    /// Stops routing `token` if it routes to session `id`; its later data counts as unrouted.
    /// Returns once no sample of it is being delivered.
    func unmap(_ token: UInt32, session id: UInt32) {
        state.withLock { state in
            guard state.routes[token]?.id == id else { return }
            state.routes[token] = nil
            state.closedTokens.insert(token)
        }
    }

    /// Stops routing anything (the client closes).
    func unmapAll() { state.withLock { $0.routes.removeAll() } }

    /// Sets which angles `token`'s samples carry.
    func setAngles(_ token: UInt32, azimuth: Bool, elevation: Bool) {
        state.withLock { state in
            state.routes[token]?.includeAzimuth = azimuth
            state.routes[token]?.includeElevation = elevation
        }
    }

    /// Measurements of range data for no mapped session, so far.
    var unrouted: Int { state.withLock { $0.unrouted } }

    // MARK: The transport's side

    /// One delivery of the stream of `generation`, on the transport's thread.
    func receive(_ delivery: UCIPacketStream.Delivery, generation: Int) {
        switch delivery {
        case .packet(let packet, let receivedAt):
            let post: ControlInput? = state.withLock { state -> ControlInput? in
                guard state.generation == generation else { return nil }
                let inbound: UCIInbound
                do throws(UCIError) {
                    guard let dispatched = try UCIInbound.dispatch(packet, reassembling: &state.reassembler) else { return nil }
                    inbound = dispatched
                } catch {
                    return .undecodable(error)
                }
                switch inbound {
                case .rangeData(let view):
                    return Self.deliver(view, receivedAt: receivedAt, in: &state, dialect: dialect, logger: logger)
                        ? nil : .unknownSession(view.session, Self.message(packet))
                case .message(let raw):
                    return .message(raw, interrupted: state.reassembler.interruptedByDeviceError, receivedAt: receivedAt)
                }
            }
            if let post { postControl(post, generation: generation) }
        case .finished(let error):
            postControl(.ended(error), generation: generation)
        }
    }

    private func postControl(_ input: ControlInput, generation: Int) {
        let control = state.withLock { $0.generation == generation ? $0.control : nil }
        guard let control else { return }
        if case .ended = input {
            control.post(input)
        } else if !control.post(input, droppable: true) {
            logger.error("the UCI client fell \(Self.controlCapacity) messages behind the UWBS: the oldest was dropped (\(control.droppedCount) so far)")
        }
    }

    /// Delivers a whole (reassembled) two-way SESSION_INFO_NTF, from the actor; its samples are
    /// stamped `receivedAt` (the transport's time of its last packet), else now.
    /// - Returns: `false` if its session is not mapped (counted as unrouted).
    func deliver(_ view: UCISessionInfoView, receivedAt: Double?) -> Bool {
        state.withLock { state in Self.deliver(view, receivedAt: receivedAt, in: &state, dialect: dialect, logger: logger) }
    }

    /// Counts `count` measurements for no mapped session.
    func countUnrouted(_ count: Int) { state.withLock { $0.unrouted += count } }

    /// Every measurement of `view` to its session's sink, timestamped `receivedAt` (the time its
    /// transport gave the packet: the virtual UWBS's round) or, without one, now (the read
    /// time); under the lock, so an unmapped session gets nothing after ``unmap(_:session:)``
    /// returned.
    private static func deliver(
        _ view: UCISessionInfoView, receivedAt: Double?, in state: inout State, dialect: UCIMeasurementDialect, logger: Logger
    ) -> Bool {
        let token = view.session
        guard let route = state.routes[token] else {
            state.unrouted += view.measurementCount
            if state.closedTokens.contains(token) {
                logger.debug("range data of closed session \(ClientText.hex32(token))")
                return true
            }
            return false
        }
        let timestamp = receivedAt ?? MonotonicTime.seconds()
        var dropped = 0
        let sink = route.samples
        view.forEachSample(
            timestamp: timestamp, includeAzimuth: route.includeAzimuth, includeElevation: route.includeElevation, dialect: dialect
        ) { sample in
            if !sink.deliver(UCIPeerRangeSample(session: route.id, peer: sample.peer, sample: sample.sample)) { dropped += 1 }
        }
        sink.endOfBatch()
        if dropped > 0 {
            let before = route.dropped
            state.routes[token]?.dropped += dropped
            let total = before + dropped
            // The first drop, then every 100th, so a stalled consumer does not flood the log.
            if before == 0 || before / 100 != total / 100 {
                logger.warning("\(UCIClientError.sessionName(route.id)): \(total) range sample(s) dropped so far: the consumer does not keep up")
            }
        }
        return true
    }

    /// The raw message of a packet (for reports).
    private static func message(_ packet: UCIPacket) -> UCIRawMessage {
        UCIRawMessage(messageType: .notification, opcode: .sessionInfo, payload: Array(packet.payload))
    }
}
