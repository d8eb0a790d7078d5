import NearbySupport

/// An ``HCITransport`` that records every packet it carries in an ``HCICaptureLog`` (the tap at
/// the transport seam behind `--hci-log`): what the host sends, as it hands it to the
/// transport, and what the controller sent, before the host sees it. Everything else is the
/// wrapped transport's.
public final class CapturingHCITransport: HCITransport {
    /// The transport that carries the packets.
    public let base: any HCITransport
    /// Where the packets are recorded.
    public let log: HCICaptureLog
    /// The controller's packets, recorded on the way through.
    public let packets: AsyncThrowingStream<HCIPacket, any Error>

    /// Wraps `base` (an opened transport); its packets are read from now on.
    public init(_ base: any HCITransport, log: HCICaptureLog) {
        self.base = base
        self.log = log
        let inbound = base.packets
        packets = AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await packet in inbound {
                        log.record(packet, direction: .received)
                        continuation.yield(packet)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public var name: String { base.name }

    public func send(_ packet: HCIPacket) async throws(BluetoothError) {
        log.record(packet, direction: .sent)
        try await base.send(packet)
    }

    public func close() async { await base.close() }
}

extension HCITransport {
    /// This transport with every packet recorded in `log` (`--hci-log`).
    public func capturing(to log: HCICaptureLog) -> any HCITransport {
        CapturingHCITransport(self, log: log)
    }
}
