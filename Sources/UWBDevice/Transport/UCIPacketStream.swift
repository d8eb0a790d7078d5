import Synchronization
public import UCI

/// What a ``UCITransport`` receives: typed UCI packets (header decoded once, by the transport's
/// `UCIPacketFramer` for byte-stream links), in arrival order, then the end of the link.
///
/// Two ways to consume it, one consumer each:
/// - **A receiver** (``deliver(to:)``), what ``UCIClient`` uses: every packet is handed over
///   synchronously on the thread that produced it (the transport's reader thread, the libusb
///   event thread, the virtual UWBS's executor), so a range notification is decoded and run
///   through the pipeline on the task that read its bytes, with no queue and no wake-up in
///   between. Packets that arrive while the receiver is still busy with an earlier one (another
///   producer thread) wait and are delivered in order by the same call, so the receiver never
///   runs twice at once.
/// - **Iteration** (`for try await packet in stream`), for tests and tools.
///
/// Bounded either way: at most ``capacity`` packets wait; one more drops the oldest waiting
/// packet and counts it (``droppedCount``). The producer never blocks.
///
/// **When a packet was received.** A transport may say when each packet arrived
/// (``Continuation/yield(_:receivedAt:)``, ``MonotonicTime`` seconds); the receiver gets that time
/// with the packet and the client stamps the packet's range samples with it. Transports that read
/// bytes from a device (USB, serial, TCP) give none: their samples are stamped when the client
/// reads the packet, as always. The in-process virtual UWBS gives the time of the round that
/// produced the packet, because its world may run rounds a few milliseconds before they are due
/// (specs/virtual-uwbs.md §4).
///
/// The API mirrors `AsyncThrowingStream` (``makeStream(capacity:)``, ``Continuation/yield(_:receivedAt:)``,
/// ``Continuation/finish(throwing:)``), so transports feed it the same way.
public final class UCIPacketStream: AsyncSequence, Sendable {
    public typealias Element = UCIPacket
    public typealias Failure = any Error

    /// What a receiver is handed: a packet, or the end of the link (`nil`: closed normally;
    /// else why it failed, e.g. ``UWBDeviceError`` code `disconnected`).
    public enum Delivery: Sendable {
        /// The next packet, and when it was received (``MonotonicTime`` seconds) if its transport
        /// said so (``Continuation/yield(_:receivedAt:)``); `nil`: read it now.
        case packet(UCIPacket, receivedAt: Double?)
        /// The link ended; nothing follows.
        case finished((any Error)?)
    }

    /// Consumes packets synchronously, on the producer's thread; must not block, and must not
    /// yield into the stream it receives from.
    public typealias Receiver = @Sendable (Delivery) -> Void

    /// Packets waiting at most (default ``defaultCapacity``).
    public let capacity: Int
    /// The default ``capacity``: about 10 s of 100 Hz range data for 8 accessories.
    public static let defaultCapacity = 8192

    /// A packet waiting for the receiver, with its receive time.
    private struct Waiting {
        var packet: UCIPacket
        var receivedAt: Double?
    }

    private struct State {
        var waiting: [Waiting] = []
        var head = 0
        /// The producer finished (with this error, if any); delivered after the waiting packets.
        var end: (any Error)?? = nil
        var endDelivered = false
        var receiver: Receiver?
        /// A receiver call is under way (one at a time).
        var delivering = false
        var waiter: CheckedContinuation<Delivery?, Never>?
        var cancelled = false
        var dropped = 0

        var count: Int { waiting.count - head }

        mutating func append(_ packet: UCIPacket, receivedAt: Double?, capacity: Int) -> Bool {
            var kept = true
            if count >= capacity {
                _ = removeFirst()
                dropped += 1
                kept = false
            }
            waiting.append(Waiting(packet: packet, receivedAt: receivedAt))
            return kept
        }

        mutating func removeFirst() -> Waiting? {
            guard head < waiting.count else { return nil }
            let packet = waiting[head]
            head += 1
            if head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return packet
        }

        /// The next thing to hand over: a waiting packet, else the end (once).
        mutating func next() -> Delivery? {
            if let first = removeFirst() { return .packet(first.packet, receivedAt: first.receivedAt) }
            if let end, !endDelivered {
                endDelivered = true
                return .finished(end)
            }
            return nil
        }
    }

    private let state = Mutex(State())

    private init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
    }

    /// A new stream and the continuation that feeds it.
    /// - Parameter capacity: the most packets that wait (at least 1).
    public static func makeStream(capacity: Int = defaultCapacity) -> (stream: UCIPacketStream, continuation: Continuation) {
        let stream = UCIPacketStream(capacity: capacity)
        return (stream, Continuation(stream: stream))
    }

    /// Feeds a ``UCIPacketStream``: the transport's side.
    public struct Continuation: Sendable {
        let stream: UCIPacketStream

        /// Hands `packet` to the receiver (synchronously, on this thread) or queues it.
        /// - Parameters:
        ///   - packet: the next packet, in arrival order.
        ///   - receivedAt: when the packet was received, ``MonotonicTime`` seconds: its range
        ///     samples are stamped with it. `nil` (a transport reading a device): they are
        ///     stamped when the client reads the packet.
        /// - Returns: `false` if the queue was full and its oldest packet was dropped (counted in
        ///   ``UCIPacketStream/droppedCount``), or the stream has ended.
        @discardableResult
        public func yield(_ packet: UCIPacket, receivedAt: Double? = nil) -> Bool { stream.yield(packet, receivedAt: receivedAt) }

        /// Ends the stream: normally (`nil`) or with the error that ended the link. Packets still
        /// waiting are delivered first. Idempotent.
        public func finish(throwing error: (any Error)? = nil) { stream.finish(error) }
    }

    /// Packets dropped so far because ``capacity`` of them were waiting.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Packets waiting now.
    public var count: Int { state.withLock { $0.count } }

    /// Hands every packet from now on (those waiting first) and the end to `receiver`,
    /// synchronously on the producer's thread. Once per stream; iteration then sees nothing.
    public func deliver(to receiver: @escaping Receiver) {
        let start = state.withLock { state -> Bool in
            guard state.receiver == nil else { return false }
            state.receiver = receiver
            guard !state.delivering else { return false }
            state.delivering = true
            return true
        }
        if start { drain(receiver) }
    }

    private func yield(_ packet: UCIPacket, receivedAt: Double?) -> Bool {
        enum Action {
            case deliver(Receiver)
            case resume(CheckedContinuation<Delivery?, Never>)
            case queued(Bool)
        }
        let action: Action = state.withLock { state in
            if state.end != nil || state.cancelled { return .queued(false) }
            if let receiver = state.receiver, !state.delivering {
                state.delivering = true
                return .deliver(receiver)
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return .resume(waiter)
            }
            return .queued(state.append(packet, receivedAt: receivedAt, capacity: capacity))
        }
        switch action {
        case .deliver(let receiver):
            receiver(.packet(packet, receivedAt: receivedAt))
            drain(receiver)
            return true
        case .resume(let waiter):
            waiter.resume(returning: .packet(packet, receivedAt: receivedAt))
            return true
        case .queued(let kept):
            return kept
        }
    }

    private func finish(_ error: (any Error)?) {
        enum Action {
            case deliver(Receiver)
            case resume(CheckedContinuation<Delivery?, Never>)
            case none
        }
        let action: Action = state.withLock { state in
            guard state.end == nil, !state.cancelled else { return .none }
            state.end = .some(error)
            if let receiver = state.receiver, !state.delivering {
                state.delivering = true
                return .deliver(receiver)
            }
            if let waiter = state.waiter, state.count == 0 {
                state.waiter = nil
                state.endDelivered = true
                return .resume(waiter)
            }
            return .none
        }
        switch action {
        case .deliver(let receiver): drain(receiver)
        case .resume(let waiter): waiter.resume(returning: .finished(error))
        case .none: break
        }
    }

    /// Delivers what waits, in order, until nothing does; the caller holds the delivery turn.
    private func drain(_ receiver: Receiver) {
        while true {
            let next: Delivery? = state.withLock { state in
                guard let next = state.next() else {
                    state.delivering = false
                    return nil
                }
                return next
            }
            guard let next else { return }
            receiver(next)
        }
    }

    /// The next delivery for an iterator: `nil` once the end was delivered or the task cancelled.
    private func next() async -> Delivery? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
                let ready: Delivery?? = state.withLock { state in
                    if state.cancelled || state.endDelivered { return .some(nil) }
                    if let next = state.next() { return .some(next) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Delivery?, Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Iterates the packets; throws the error that ended the link, if any.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: UCIPacketStream

        public mutating func next() async throws -> UCIPacket? {
            switch await stream.next() {
            case .packet(let packet, _)?: return packet
            case .finished(let error?)?: throw error
            case .finished(nil)?, nil: return nil
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }
}
