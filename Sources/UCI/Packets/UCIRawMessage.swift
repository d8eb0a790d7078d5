import NearbyBase

/// A whole UCI message before interpretation: its identity (message type and GID/OID, or data
/// packet format) and its complete payload, reassembled from all of its segments.
///
/// ``UCIReassembler`` produces these from packets; ``UCISegmenter`` splits them into packets;
/// ``UCIMessage/init(decoding:version:)`` interprets them.
public struct UCIRawMessage: Sendable, Hashable, CustomStringConvertible {
    /// The message type (MT).
    public var messageType: UCIMessageType
    /// Octet 0 bits 3-0 of its packets: the GID of a control message or the DPF of a data message.
    public var groupOrFormat: UInt8
    /// The 6-bit OID of a control message (0 for data messages).
    public var opcodeID: UInt8
    /// The complete payload.
    public var payload: [UInt8]

    /// Creates a control message (command, response, notification, or a reserved MT).
    public init(messageType: UCIMessageType, opcode: UCIOpcode, payload: [UInt8]) {
        self.messageType = messageType
        self.groupOrFormat = opcode.gid.rawValue
        self.opcodeID = opcode.oid
        self.payload = payload
    }

    /// Creates a data message (MT 0).
    public init(dataPacketFormat: UCIDataPacketFormat, payload: [UInt8]) {
        self.messageType = .data
        self.groupOrFormat = dataPacketFormat.rawValue
        self.opcodeID = 0
        self.payload = payload
    }

    /// Creates a message with the identity of a packet header and the given payload.
    init(header: UCIPacketHeader, payload: [UInt8]) {
        self.messageType = header.messageType
        self.groupOrFormat = header.groupOrFormat
        self.opcodeID = header.messageType.isData ? 0 : header.opcodeID
        self.payload = payload
    }

    /// `true` for a data message (MT 0).
    public var isData: Bool { messageType.isData }

    /// The GID/OID of a control message.
    public var opcode: UCIOpcode { UCIOpcode(gid: UCIGroupID(rawValue: groupOrFormat), oid: opcodeID) }

    /// The data packet format of a data message (meaningful only if ``isData``).
    public var dataPacketFormat: UCIDataPacketFormat { UCIDataPacketFormat(rawValue: groupOrFormat) }

    /// The message's name: `"SESSION_INIT_RSP"`, `"SESSION_INFO_NTF"`, `"DATA_MESSAGE_RCV"`,
    /// `"VENDOR_NTF"`.
    public var name: String {
        isData ? (dataPacketFormat.name ?? "DATA_MESSAGE (DPF \(Hex.prefixed(groupOrFormat)))") : opcode.messageName(for: messageType)
    }

    /// `"SESSION_STATUS_NTF (NTF 1/02, 6 bytes): 01 00 00 00 03 00"`.
    public var description: String {
        let identity = isData ? "DATA DPF \(Hex.prefixed(groupOrFormat))" : "\(messageType.shortName) \(opcode)"
        return "\(name) (\(identity), \(payload.count) byte\(payload.count == 1 ? "" : "s"))"
            + (payload.isEmpty ? "" : ": \(Hex.bytes(payload))")
    }
}
