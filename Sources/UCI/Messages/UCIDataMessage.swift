import NearbyBase

/// A UCI 2.0 data message (MT 0): application data to or from a peer, carried in data packets
/// with a 16-bit length and segmented to the UWBS's maximum data packet payload.
///
/// The host may send one DATA_MESSAGE_SND per credit (see SESSION_DATA_CREDIT_NTF). UCI 1.1
/// used GID 3 control messages (APP_DATA_TX/RX) instead; those are kept raw.
public enum UCIDataMessage: Sendable, Hashable {
    /// DATA_MESSAGE_SND (DPF 1), host to UWBS.
    case send(UCIDataSend)
    /// DATA_MESSAGE_RCV (DPF 2), UWBS to host.
    case receive(UCIDataReceive)
    /// Another data packet format (radar, reserved), with its raw payload.
    case other(UCIDataPacketFormat, payload: [UInt8])

    /// The data packet format.
    public var format: UCIDataPacketFormat {
        switch self {
        case .send: .send
        case .receive: .receive
        case .other(let format, _): format
        }
    }

    /// `"DATA_MESSAGE_SND"`.
    public var name: String { format.name ?? "DATA_MESSAGE (DPF \(Hex.prefixed(format.rawValue)))" }

    /// The payload bytes.
    /// - Throws: ``UCIError/Code/messageTooLarge`` if the application data exceeds 65535 bytes.
    public func encodePayload() throws(UCIError) -> [UInt8] {
        var w = ByteWriter(context: name)
        switch self {
        case .send(let m):
            w.u32(m.session)
            w.u64(m.destination)
            w.u16(m.sequenceNumber)
            try Self.appendData(m.data, to: &w)
        case .receive(let m):
            w.u32(m.session)
            w.u8(m.status.rawValue)
            w.u64(m.source)
            w.u16(m.sequenceNumber)
            try Self.appendData(m.data, to: &w)
        case .other(_, let payload): w.append(payload)
        }
        return w.bytes
    }

    private static func appendData(_ data: [UInt8], to w: inout ByteWriter) throws(UCIError) {
        guard data.count <= 0xFFFF else {
            throw UCIError(
                .messageTooLarge, context: w.context, field: "application data",
                detail: "\(data.count) bytes do not fit the 2-byte length (at most 65535)")
        }
        w.u16(UInt16(data.count))
        w.append(data)
    }

    /// The message as a raw message, ready for ``UCISegmenter``.
    /// - Throws: the errors of ``encodePayload()``.
    public func rawMessage() throws(UCIError) -> UCIRawMessage {
        UCIRawMessage(dataPacketFormat: format, payload: try encodePayload())
    }

    /// The message's wire packets, segmented to `segmenter`'s data payload size.
    /// - Throws: the errors of ``encodePayload()``.
    public func packets(_ segmenter: UCISegmenter = UCISegmenter()) throws(UCIError) -> [UCIPacket] {
        segmenter.packets(for: try rawMessage())
    }

    /// Decodes a data message from its format and (reassembled) payload.
    /// - Throws: ``UCIError`` if the payload is truncated, or its data length disagrees with the
    ///   bytes present.
    public init(format: UCIDataPacketFormat, payload: ArraySlice<UInt8>) throws(UCIError) {
        var r = UCIFieldReader(payload, context: format.name ?? "DATA_MESSAGE")
        switch format {
        case .send:
            let session = try r.u32("session")
            let destination = try r.u64("destination address")
            let sequence = try r.u16("sequence number")
            let data = try Self.readData(&r)
            self = .send(UCIDataSend(session: session, destination: destination, sequenceNumber: sequence, data: data))
        case .receive:
            let session = try r.u32("session")
            let status = UCIDataReceiveStatus(rawValue: try r.u8("status"))
            let source = try r.u64("source address")
            let sequence = try r.u16("sequence number")
            let data = try Self.readData(&r)
            self = .receive(UCIDataReceive(session: session, status: status, source: source, sequenceNumber: sequence, data: data))
        default:
            self = .other(format, payload: r.rest())
        }
        try r.expectEnd()
    }

    /// Decodes a data message; see ``init(format:payload:)-(_,ArraySlice<UInt8>)``.
    public init(format: UCIDataPacketFormat, payload: [UInt8]) throws(UCIError) {
        try self.init(format: format, payload: payload[...])
    }

    private static func readData(_ r: inout UCIFieldReader) throws(UCIError) -> [UInt8] {
        let length = Int(try r.u16("application data length"))
        return try r.bytes(length, "application data")
    }
}

/// DATA_MESSAGE_SND: application data for a peer.
public struct UCIDataSend: Sendable, Hashable {
    /// The session ID or handle.
    public var session: UInt32
    /// The peer's MAC address (a short address fills the low 16 bits).
    public var destination: UInt64
    /// The UCI sequence number, echoed by SESSION_DATA_TRANSFER_STATUS_NTF.
    public var sequenceNumber: UInt16
    /// The application data.
    public var data: [UInt8]

    /// Creates a data message to send.
    public init(session: UInt32, destination: UInt64, sequenceNumber: UInt16, data: [UInt8]) {
        self.session = session
        self.destination = destination
        self.sequenceNumber = sequenceNumber
        self.data = data
    }
}

/// DATA_MESSAGE_RCV: application data received from a peer.
public struct UCIDataReceive: Sendable, Hashable {
    /// The session ID or handle.
    public var session: UInt32
    /// The reception status.
    public var status: UCIDataReceiveStatus
    /// The peer's MAC address (a short address fills the low 16 bits).
    public var source: UInt64
    /// The UCI sequence number.
    public var sequenceNumber: UInt16
    /// The application data.
    public var data: [UInt8]

    /// Creates a received data message.
    public init(session: UInt32, status: UCIDataReceiveStatus = .success, source: UInt64, sequenceNumber: UInt16, data: [UInt8]) {
        self.session = session
        self.status = status
        self.source = source
        self.sequenceNumber = sequenceNumber
        self.data = data
    }
}
