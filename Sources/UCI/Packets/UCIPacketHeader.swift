import NearbyBase

/// The 4-byte header of a UCI packet.
///
/// | Octet | Control packet (MT 1-7)            | Data packet (MT 0)            |
/// |-------|------------------------------------|-------------------------------|
/// | 0     | `MT[7:5] PBF[4] GID[3:0]`          | `MT[7:5] PBF[4] DPF[3:0]`     |
/// | 1     | `RFU[7:6] OID[5:0]`                | RFU                           |
/// | 2     | RFU                                | payload length, low byte      |
/// | 3     | payload length (0...255)           | payload length, high byte     |
///
/// NXP extension: a control packet with octet 1 bit 7 set carries a 16-bit length,
/// `octet3 << 8 | octet2` (``usesExtendedLength``). Reserved (RFU) bits are ignored when decoding
/// and written as zero.
public struct UCIPacketHeader: Sendable, Hashable, CustomStringConvertible {
    /// The size of a header in bytes.
    public static let size = 4
    /// The largest payload of a control packet (one-byte length).
    public static let maxControlPayloadLength = 255
    /// The largest payload of a data packet or of an NXP extended-length control packet.
    public static let maxDataPayloadLength = 65_535

    /// The message type (MT).
    public var messageType: UCIMessageType
    /// The packet boundary flag (PBF): `true` if more segments of the same message follow.
    public var moreSegmentsFollow: Bool
    /// Octet 0 bits 3-0: the GID of a control packet or the DPF of a data packet.
    public var groupOrFormat: UInt8
    /// The 6-bit OID of a control packet (0 for data packets).
    public var opcodeID: UInt8
    /// The length of the payload that follows the header, in bytes.
    public var payloadLength: Int
    /// `true` if a control packet uses NXP's 16-bit length extension (octet 1 bit 7).
    public var usesExtendedLength: Bool

    /// Creates a control packet header (MT 1-7).
    public init(
        messageType: UCIMessageType, opcode: UCIOpcode, payloadLength: Int,
        moreSegmentsFollow: Bool = false, usesExtendedLength: Bool = false
    ) {
        self.messageType = messageType
        self.moreSegmentsFollow = moreSegmentsFollow
        self.groupOrFormat = opcode.gid.rawValue
        self.opcodeID = opcode.oid
        self.payloadLength = payloadLength
        self.usesExtendedLength = usesExtendedLength
    }

    /// Creates a data packet header (MT 0).
    public init(dataPacketFormat: UCIDataPacketFormat, payloadLength: Int, moreSegmentsFollow: Bool = false) {
        self.messageType = .data
        self.moreSegmentsFollow = moreSegmentsFollow
        self.groupOrFormat = dataPacketFormat.rawValue
        self.opcodeID = 0
        self.payloadLength = payloadLength
        self.usesExtendedLength = false
    }

    /// Decodes a header from the first four bytes of `bytes`.
    /// - Throws: ``UCIError/Code/truncated`` if fewer than four bytes are given.
    public init(decoding bytes: ArraySlice<UInt8>) throws(UCIError) {
        guard bytes.count >= Self.size else {
            throw UCIError(
                .truncated, context: "UCI packet header",
                detail: "a packet header has 4 bytes, got \(bytes.count)"
                    + (bytes.isEmpty ? "" : " (\(Hex.bytes(bytes)))"))
        }
        let i = bytes.startIndex
        self.init(octets: bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
    }

    /// Decodes the four header octets; every bit pattern is a header (reserved bits are ignored).
    /// The one place that reads a header's fields and its payload length from bytes.
    init(octets octet0: UInt8, _ octet1: UInt8, _ octet2: UInt8, _ octet3: UInt8) {
        messageType = UCIMessageType(rawValue: octet0 >> 5)
        moreSegmentsFollow = octet0 & 0x10 != 0
        groupOrFormat = octet0 & 0x0F
        if messageType.isData {
            // Data packets (MT 0): a 16-bit little-endian length in octets 2-3.
            opcodeID = 0
            usesExtendedLength = false
            payloadLength = Int(octet2) | Int(octet3) << 8
        } else {
            opcodeID = octet1 & 0x3F
            usesExtendedLength = octet1 & 0x80 != 0
            // Control packets: 8-bit length in octet 3; NXP's extension: `octet3 << 8 | octet2`.
            payloadLength = usesExtendedLength ? Int(octet3) << 8 | Int(octet2) : Int(octet3)
        }
    }

    /// Decodes a header from the first four bytes of `bytes`.
    /// - Throws: ``UCIError/Code/truncated`` if fewer than four bytes are given.
    public init(decoding bytes: [UInt8]) throws(UCIError) {
        try self.init(decoding: bytes[...])
    }

    /// The GID and OID of a control packet. For a data packet the GID holds the DPF; use
    /// ``dataPacketFormat`` instead.
    public var opcode: UCIOpcode { UCIOpcode(gid: UCIGroupID(rawValue: groupOrFormat), oid: opcodeID) }

    /// `true` for a whole (unsegmented) SESSION_INFO_NTF (NTF, GID 2, OID 0, PBF 0): range data
    /// that can be read in place with ``UCISessionInfoView``.
    public var isUnsegmentedSessionInfo: Bool {
        messageType == .notification && opcode == .sessionInfo && !moreSegmentsFollow
    }

    /// The data packet format of a data packet (meaningful only if ``messageType`` is `.data`).
    public var dataPacketFormat: UCIDataPacketFormat { UCIDataPacketFormat(rawValue: groupOrFormat) }

    /// The largest payload length this header can announce.
    public var maxPayloadLength: Int {
        messageType.isData || usesExtendedLength ? Self.maxDataPayloadLength : Self.maxControlPayloadLength
    }

    /// The message's name (`"SESSION_INFO_NTF"`, `"DATA_MESSAGE_SND"`).
    public var messageName: String {
        messageType.isData
            ? (dataPacketFormat.name ?? "DATA_MESSAGE (DPF \(Hex.prefixed(groupOrFormat)))")
            : opcode.messageName(for: messageType)
    }

    /// The four header bytes.
    /// - Throws: ``UCIError/Code/messageTooLarge`` if ``payloadLength`` does not fit the length
    ///   field (255 for control packets, 65535 for data and extended-length packets).
    public func encoded() throws(UCIError) -> [UInt8] {
        guard (0...maxPayloadLength).contains(payloadLength) else {
            throw UCIError(
                .messageTooLarge, context: "UCI packet header", field: "payload length",
                detail: "\(payloadLength) bytes do not fit a \(messageType.isData ? "data" : "control") packet "
                    + "(0...\(maxPayloadLength)); segment the message")
        }
        return octets()
    }

    /// The four header bytes, without checking the length (callers checked it).
    func octets() -> [UInt8] {
        let octet0 = messageType.rawValue << 5 | (moreSegmentsFollow ? 0x10 : 0) | groupOrFormat & 0x0F
        if messageType.isData {
            return [octet0, 0, UInt8(payloadLength & 0xFF), UInt8(payloadLength >> 8)]
        }
        if usesExtendedLength {
            return [octet0, 0x80 | opcodeID & 0x3F, UInt8(payloadLength & 0xFF), UInt8(payloadLength >> 8)]
        }
        return [octet0, opcodeID & 0x3F, 0, UInt8(payloadLength)]
    }

    /// `"NTF 2/00 SESSION_INFO_NTF, 56 bytes"` (plus `", more segments follow"`).
    public var description: String {
        let identity = messageType.isData ? "DATA DPF \(Hex.prefixed(groupOrFormat))" : "\(messageType.shortName) \(opcode)"
        return "\(identity) \(messageName), \(payloadLength) byte\(payloadLength == 1 ? "" : "s")"
            + (moreSegmentsFollow ? ", more segments follow" : "")
    }
}
