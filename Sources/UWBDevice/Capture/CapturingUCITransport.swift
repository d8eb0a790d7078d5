import NearbySupport
import UCI

/// A ``UCITransport`` that records every packet it carries in a ``UCICaptureLog`` (the tap at
/// the transport seam behind `--uci-log`): what the client sends, as it hands it to the
/// transport, and what the transport received, before the client sees it (re-encoded from the
/// typed packet: reserved header bits read as 0), on the transport's own thread. Everything
/// else is the wrapped transport's.
public final class CapturingUCITransport: UCITransport {
    /// The transport that carries the packets.
    public let base: any UCITransport
    /// Where the packets are recorded.
    public let log: UCICaptureLog

    /// Wraps `base`; nothing is opened.
    public init(_ base: any UCITransport, log: UCICaptureLog) {
        self.base = base
        self.log = log
    }

    public var name: String { base.name }

    public func open() async throws -> UCIPacketStream {
        let inbound = try await base.open()
        let log = self.log
        let (stream, continuation) = UCIPacketStream.makeStream(capacity: inbound.capacity)
        inbound.deliver { delivery in
            switch delivery {
            case .packet(let packet, let receivedAt):
                log.record(packet.bytes, direction: .received)
                continuation.yield(packet, receivedAt: receivedAt)
            case .finished(let error):
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    public func send(_ packet: [UInt8]) async throws {
        // Recorded as handed over, also when the transport then refuses it (the log shows what
        // the client tried).
        log.record(packet, direction: .sent)
        try await base.send(packet)
    }

    public func close() async { await base.close() }

    public func waitUntilPresent(timeout: Duration) async throws { try await base.waitUntilPresent(timeout: timeout) }
}

extension UCITransport {
    /// This transport with every packet recorded in `log` (`--uci-log`).
    public func capturing(to log: UCICaptureLog) -> any UCITransport {
        CapturingUCITransport(self, log: log)
    }
}
