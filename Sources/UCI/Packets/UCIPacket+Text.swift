import NearbyBase

extension UCIPacket {
    /// One whole packet given as hex text (`20020000`, `"20 02 00 00"`, `0x20:02:00:00`), as
    /// `nearby uwb raw` takes it.
    /// - Throws: ``UCIPacketTextError``: not hex, shorter than a header, or a length that
    ///   disagrees with the header's.
    public init(hex text: String) throws(UCIPacketTextError) {
        guard let bytes = try? Hex.parse(text), !bytes.isEmpty else { throw .notHex(text) }
        guard let header = try? UCIPacketHeader(decoding: bytes) else { throw .tooShort(byteCount: bytes.count) }
        guard let packet = try? UCIPacket(bytes: bytes) else {
            throw .lengthMismatch(bytes: bytes, announcedPayload: header.payloadLength)
        }
        self = packet
    }

    /// The packet as a line: its hex bytes (padded to 36 columns) and what the header says,
    /// `20 02 00 00                           CMD gid 0x0 oid 0x2, 0 payload byte(s)`; a response
    /// also shows its status byte.
    public var line: String {
        let gid = String(header.groupOrFormat, radix: 16)
        var summary = header.messageType.isData
            ? "DATA dpf 0x\(gid)"
            : "\(header.messageType.shortName) gid 0x\(gid) oid 0x\(String(header.opcodeID, radix: 16))"
        if header.moreSegmentsFollow { summary += " (segment)" }
        summary += ", \(header.payloadLength) payload byte(s)"
        if header.messageType == .response, let status = payload.first { summary += ", status 0x\(String(status, radix: 16))" }
        let hex = Hex.bytes(bytes)
        return hex + String(repeating: " ", count: max(0, 36 - hex.count)) + "  " + summary
    }
}

/// Why hex text is not one UCI packet (``UCIPacket/init(hex:)``). The description starts
/// after the packet's name: `packet 2 \(error)` reads as a sentence.
public enum UCIPacketTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not hex bytes (or holds none).
    case notHex(String)
    /// Fewer bytes than the 4-byte header.
    case tooShort(byteCount: Int)
    /// The header announces another payload length than the bytes have.
    case lengthMismatch(bytes: [UInt8], announcedPayload: Int)

    /// What is wrong and what a packet looks like.
    public var description: String {
        switch self {
        case .notHex(let text): "\"\(text)\" is not hex bytes (e.g. 20020000 or \"20 02 00 00\")"
        case .tooShort(let count): "has \(count) byte(s); a UCI packet has a 4-byte header"
        case .lengthMismatch(let bytes, let payload):
            "(\(Hex.bytes(bytes))): its header announces \(payload) payload byte(s), so the packet must be "
                + "\(UCIPacketHeader.size + payload) bytes, not \(bytes.count)"
        }
    }
}
