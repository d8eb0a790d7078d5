import NearbyBase

/// An L2CAP basic frame (B-frame, Core Vol 3 Part A 3.1): length, channel ID, payload.
public struct L2CAPFrame: Sendable, Hashable {
    /// LE fixed channel: Attribute Protocol.
    public static let attributeProtocolChannel: UInt16 = 0x0004
    /// LE fixed channel: LE signaling.
    public static let leSignalingChannel: UInt16 = 0x0005
    /// LE fixed channel: Security Manager Protocol.
    public static let securityManagerChannel: UInt16 = 0x0006

    /// The channel ID.
    public var channel: UInt16
    /// The payload (an ATT PDU on channel 4).
    public var payload: [UInt8]

    /// Creates a frame.
    public init(channel: UInt16, payload: [UInt8]) {
        self.channel = channel
        self.payload = payload
    }

    /// Decodes a whole PDU as reassembled from ACL fragments.
    /// - Throws: ``BluetoothError/invalidResponse(detail:)`` if the length field disagrees.
    public init(decoding pdu: [UInt8]) throws(BluetoothError) {
        var reader = ByteReader(pdu)
        guard let length = reader.u16(), let channel = reader.u16(), reader.remaining == Int(length) else {
            throw .invalidResponse(detail: "malformed L2CAP frame: \(hexDump(pdu))")
        }
        self.channel = channel
        self.payload = reader.rest()
    }

    /// The PDU bytes: length and channel (little-endian), then the payload.
    public var bytes: [UInt8] {
        var pdu: [UInt8] = []
        pdu.reserveCapacity(4 + payload.count)
        pdu.appendLE(UInt16(payload.count))
        pdu.appendLE(channel)
        pdu.append(contentsOf: payload)
        return pdu
    }
}
