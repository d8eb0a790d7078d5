import NearbyTestSupport
import Synchronization
import UCI
import UWBDevice

/// An in-memory ``UCITransport`` for client tests: records every packet the client sends,
/// answers from a script (each reply is one whole packet, delivered before `send` returns), lets
/// a test inject packets, and can be "unplugged" (the stream finishes with `disconnected`, opens
/// fail until it is plugged in again). Replies and injected bytes go through a
/// ``UCIPacketFramer``, as a byte-stream transport's do, so the client receives typed packets.
final class MemoryTransport: UCITransport {
    typealias Script = @Sendable (_ packet: [UInt8]) -> [[UInt8]]

    let name: String
    private let script: Script
    private let greeting: [[UInt8]]
    private struct State {
        var continuation: UCIPacketStream.Continuation?
        var framer = UCIPacketFramer()
        var sent: [[UInt8]] = []
        var opens = 0
        var present = true
    }
    private let state = Mutex(State())

    init(name: String = "memory:uwbs", greeting: [[UInt8]] = [], script: @escaping Script) {
        self.name = name
        self.greeting = greeting
        self.script = script
    }

    /// Every packet sent so far, in order.
    var sent: [[UInt8]] { state.withLock { $0.sent } }
    /// How many times the client opened the transport.
    var opens: Int { state.withLock { $0.opens } }

    func open() async throws -> UCIPacketStream {
        let (stream, continuation) = UCIPacketStream.makeStream()
        try state.withLock { state in
            guard state.present else {
                throw UWBDeviceError(.notFound, device: name, reason: "the memory UWBS is unplugged")
            }
            guard state.continuation == nil else {
                throw UWBDeviceError(.alreadyOpen, device: name, reason: "already open")
            }
            state.continuation = continuation
            state.framer.reset()
            state.opens += 1
        }
        receive(greeting)
        return stream
    }

    /// Frames `chunks` and yields the packets, in order (with `receivedAt` as their receive time).
    private func receive(_ chunks: [[UInt8]], receivedAt: Double? = nil) {
        state.withLock { state in
            for chunk in chunks {
                state.framer.append(chunk)
                while let packet = state.framer.nextPacket() { state.continuation?.yield(packet, receivedAt: receivedAt) }
            }
        }
    }

    func send(_ packet: [UInt8]) async throws {
        try state.withLock { state in
            guard state.continuation != nil else {
                throw UWBDeviceError(.notOpen, device: name, reason: "not open")
            }
            state.sent.append(packet)
        }
        receive(script(packet))
    }

    func close() async {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.finish()
    }

    func waitUntilPresent(timeout: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !state.withLock({ $0.present }) {
            if clock.now >= deadline {
                throw UWBDeviceError(.timeout, device: name, reason: "not back within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Delivers packets as if the UWBS sent them; `receivedAt`: the receive time the transport
    /// gives them (as the in-process virtual UWBS does), `nil` for none (as USB, serial, TCP).
    func inject(_ packets: [[UInt8]], receivedAt: Double? = nil) {
        receive(packets, receivedAt: receivedAt)
    }

    /// The dev kit goes away: the stream ends with `disconnected`, opens fail until ``plug()``.
    func unplug() {
        let continuation = state.withLock { state in
            state.present = false
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.finish(throwing: UWBDeviceError(.disconnected, device: name, reason: "the memory UWBS was unplugged"))
    }

    /// The dev kit is back.
    func plug() {
        state.withLock { $0.present = true }
    }

    /// Waits until at least `count` packets were sent.
    func waitForSent(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [[UInt8]] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let packets = sent
            if packets.count >= count { return packets }
            if clock.now >= deadline {
                throw ChildProcessError("the memory transport saw \(packets.count) of \(count) packets: \(packets.map(hex))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
