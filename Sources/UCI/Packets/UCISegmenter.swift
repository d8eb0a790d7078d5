/// Splits a UCI message into packets no larger than the UWBS accepts.
///
/// All segments but the last have the packet boundary flag (PBF) set and repeat the message's
/// MT and GID/OID (or DPF). An empty payload gives one packet with length 0.
///
/// The maximum payload per packet is 255 bytes for control messages (the one-byte length field;
/// Qorvo's firmware rejects more). For data messages it is the UWBS's capability (UCI 2.0
/// `MAX_DATA_PACKET_PAYLOAD_SIZE`); AOSP assumes 255 until it has read the capabilities.
public struct UCISegmenter: Sendable, Hashable {
    /// The largest payload of one control packet, 1...255.
    public let maxControlPayloadSize: Int
    /// The largest payload of one data packet, 1...65535.
    public let maxDataPayloadSize: Int

    /// Creates a segmenter. Sizes outside their ranges are clamped into them (control 1...255,
    /// data 1...65535).
    public init(maxControlPayloadSize: Int = 255, maxDataPayloadSize: Int = 255) {
        self.maxControlPayloadSize = min(max(maxControlPayloadSize, 1), UCIPacketHeader.maxControlPayloadLength)
        self.maxDataPayloadSize = min(max(maxDataPayloadSize, 1), UCIPacketHeader.maxDataPayloadLength)
    }

    /// The packets of `message`, in order.
    public func packets(for message: UCIRawMessage) -> [UCIPacket] {
        var packets: [UCIPacket] = []
        append(packetsFor: message, to: &packets)
        return packets
    }

    /// Appends the packets of `message`, in order, to `packets` (a caller gathering the packets
    /// of several messages builds no array per message).
    public func append(packetsFor message: UCIRawMessage, to packets: inout [UCIPacket]) {
        let limit = message.isData ? maxDataPayloadSize : maxControlPayloadSize
        // Reserved exactly only into an empty array: growing a full one exactly at every call
        // would copy it each time (appending grows it geometrically).
        if packets.isEmpty { packets.reserveCapacity(max(1, (message.payload.count + limit - 1) / limit)) }
        var start = 0
        repeat {
            let end = min(start + limit, message.payload.count)
            let header = Self.header(for: message, length: end - start, more: end < message.payload.count)
            // The segment is at most `limit`, which fits the header's length field; it shares the
            // message's payload buffer.
            packets.append(UCIPacket(checkedHeader: header, payload: message.payload[start..<end]))
            start = end
        } while start < message.payload.count
    }

    /// The wire bytes of each packet of `message`, in order.
    public func encode(_ message: UCIRawMessage) -> [[UInt8]] {
        packets(for: message).map(\.bytes)
    }

    private static func header(for message: UCIRawMessage, length: Int, more: Bool) -> UCIPacketHeader {
        message.isData
            ? UCIPacketHeader(dataPacketFormat: message.dataPacketFormat, payloadLength: length, moreSegmentsFollow: more)
            : UCIPacketHeader(messageType: message.messageType, opcode: message.opcode, payloadLength: length, moreSegmentsFollow: more)
    }
}
