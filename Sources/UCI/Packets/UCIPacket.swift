import NearbyBase

/// One UCI packet: a 4-byte header and its payload (a whole message or one segment of it).
///
/// The header is decoded once, where the packet is made: by ``UCIPacketFramer`` from a byte
/// stream, by ``init(bytes:)-(ArraySlice<UInt8>)`` from one packet's bytes, or by
/// ``UCISegmenter`` from a message. Consumers dispatch on ``header`` and read ``payload`` in
/// place (``UCISessionInfoView/init(payload:)-(ArraySlice<UInt8>)``) or hand the packet to
/// ``UCIReassembler``; nothing parses the header bytes again.
///
/// The payload is a slice of the buffer the packet was cut from, not a copy: a packet from
/// ``UCIPacketFramer`` shares the framer's buffer (copy-on-write keeps both correct; the framer
/// reuses its buffer in place once no packet of it is held any more, as swift-nio's
/// `ByteToMessageDecoder` does with its cumulation buffer). Keep ``UCIRawMessage`` (an owned
/// copy) for long-lived storage.
public struct UCIPacket: Sendable, Hashable, CustomStringConvertible {
    /// The header; its ``UCIPacketHeader/payloadLength`` always equals `payload.count`.
    public private(set) var header: UCIPacketHeader
    /// The payload bytes (indices are those of the underlying buffer: start at
    /// `payload.startIndex`).
    public private(set) var payload: ArraySlice<UInt8>

    /// Creates a packet from a header and a payload; the header's length is set from the payload.
    /// - Throws: ``UCIError/Code/messageTooLarge`` if the payload does not fit the packet's length
    ///   field (255 bytes for control packets, 65535 for data packets).
    public init(header: UCIPacketHeader, payload: ArraySlice<UInt8>) throws(UCIError) {
        var header = header
        header.payloadLength = payload.count
        guard payload.count <= header.maxPayloadLength else {
            throw UCIError(
                .messageTooLarge, context: header.messageName, field: "payload length",
                detail: "\(payload.count) bytes do not fit one packet (at most \(header.maxPayloadLength)); "
                    + "segment the message with UCISegmenter")
        }
        self.header = header
        self.payload = payload
    }

    /// Creates a packet from a header and a payload; see ``init(header:payload:)-(_,ArraySlice<UInt8>)``.
    /// - Throws: ``UCIError/Code/messageTooLarge`` if the payload does not fit the length field.
    public init(header: UCIPacketHeader, payload: [UInt8]) throws(UCIError) {
        try self.init(header: header, payload: payload[...])
    }

    /// Creates a packet whose header already announces exactly `payload.count` bytes (the
    /// framer and the segmenter checked it).
    init(checkedHeader header: UCIPacketHeader, payload: ArraySlice<UInt8>) {
        self.header = header
        self.payload = payload
    }

    /// Decodes one whole packet (header and payload, nothing more); the payload is a slice of
    /// `bytes`, not a copy.
    /// - Throws: ``UCIError/Code/truncated`` if the bytes are shorter than the header says,
    ///   ``UCIError/Code/trailingBytes`` if they are longer.
    public init(bytes: ArraySlice<UInt8>) throws(UCIError) {
        let header = try UCIPacketHeader(decoding: bytes)
        let available = bytes.count - UCIPacketHeader.size
        guard available >= header.payloadLength else {
            throw UCIError(
                .truncated, context: header.messageName,
                detail: "the header announces a \(header.payloadLength)-byte payload, but only \(available) "
                    + (available == 1 ? "byte follows" : "bytes follow") + " (the packet is truncated)")
        }
        guard available == header.payloadLength else {
            throw UCIError(
                .trailingBytes, context: header.messageName,
                detail: "the header announces a \(header.payloadLength)-byte payload, but \(available) bytes "
                    + "follow (\(available - header.payloadLength) extra; several packets need splitting "
                    + "with UCIPacketFramer)")
        }
        self.header = header
        self.payload = bytes.dropFirst(UCIPacketHeader.size)
    }

    /// Decodes one whole packet (header and payload, nothing more).
    /// - Throws: ``UCIError/Code/truncated`` if the bytes are shorter than the header says,
    ///   ``UCIError/Code/trailingBytes`` if they are longer.
    public init(bytes: [UInt8]) throws(UCIError) {
        try self.init(bytes: bytes[...])
    }

    /// The wire bytes: header then payload.
    public var bytes: [UInt8] {
        var bytes = header.octets()  // the length was checked when the packet was made
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// `"NTF 1/02 SESSION_STATUS_NTF, 6 bytes: 01 00 00 00 03 00"`.
    public var description: String { "\(header): \(Hex.bytes(payload))" }
}
