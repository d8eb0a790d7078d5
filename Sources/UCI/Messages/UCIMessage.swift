/// Any UCI message, typed by direction: what ``UCIReassembler`` output decodes into.
///
/// ```swift
/// var framer = UCIPacketFramer(), reassembler = UCIReassembler()
/// framer.append(received)
/// while let packet = framer.nextPacket() {
///     if let raw = try reassembler.append(packet) {
///         switch try UCIMessage(decoding: raw, version: uciVersion) {
///         case .response(let response): ...   // match by response.opcode
///         case .notification(let notification): ...
///         default: ...
///         }
///     }
/// }
/// ```
public enum UCIMessage: Sendable, Hashable {
    /// A command (MT 1).
    case command(UCICommand)
    /// A response (MT 2).
    case response(UCIResponse)
    /// A notification (MT 3).
    case notification(UCINotification)
    /// A data message (MT 0).
    case data(UCIDataMessage)
    /// A message with a reserved message type (MT 4-7), kept raw.
    case reserved(UCIRawMessage)

    /// Decodes a reassembled message.
    /// - Parameters:
    ///   - raw: the message: header fields and the whole payload.
    ///   - version: the UWBS's UCI version (from CORE_GET_DEVICE_INFO); it matters only
    ///     where the bytes alone cannot tell the 1.1 and 2.0 layouts apart.
    /// - Throws: ``UCIError`` naming the message and field if the payload does not match the
    ///   message's layout.
    public init(decoding raw: UCIRawMessage, version: UCIVersion = .v2_0) throws(UCIError) {
        let payload = raw.payload[...]
        switch raw.messageType {
        case .data: self = .data(try UCIDataMessage(format: raw.dataPacketFormat, payload: payload))
        case .command: self = .command(try UCICommand(opcode: raw.opcode, payload: payload))
        case .response: self = .response(try UCIResponse(opcode: raw.opcode, payload: payload))
        case .notification: self = .notification(try UCINotification(opcode: raw.opcode, payload: payload, version: version))
        default: self = .reserved(raw)
        }
    }

    /// Decodes one unsegmented packet (header and payload).
    /// - Throws: ``UCIError/Code/unexpectedMessage`` for a segment (PBF set: reassemble with
    ///   ``UCIReassembler``), and the errors of ``UCIPacket/init(bytes:)-([UInt8])`` and
    ///   ``init(decoding:version:)``.
    public init(packet bytes: [UInt8], version: UCIVersion = .v2_0) throws(UCIError) {
        try self.init(packet: try UCIPacket(bytes: bytes), version: version)
    }

    /// Decodes one unsegmented packet.
    /// - Throws: ``UCIError/Code/unexpectedMessage`` for a segment (PBF set: reassemble with
    ///   ``UCIReassembler``), and the errors of ``init(decoding:version:)``.
    public init(packet: UCIPacket, version: UCIVersion = .v2_0) throws(UCIError) {
        guard !packet.header.moreSegmentsFollow else {
            throw UCIError(
                .unexpectedMessage, context: packet.header.messageName,
                detail: "the packet is the first segment of a segmented message; feed it to UCIReassembler")
        }
        try self.init(decoding: UCIRawMessage(header: packet.header, payload: Array(packet.payload)), version: version)
    }

    /// The message's message type.
    public var messageType: UCIMessageType {
        switch self {
        case .command: .command
        case .response: .response
        case .notification: .notification
        case .data: .data
        case .reserved(let raw): raw.messageType
        }
    }

    /// The message's name: `"SESSION_INIT_CMD"`, `"SESSION_INFO_NTF"`, `"DATA_MESSAGE_RCV"`.
    public var name: String {
        switch self {
        case .command(let m): m.name
        case .response(let m): m.name
        case .notification(let m): m.name
        case .data(let m): m.name
        case .reserved(let raw): raw.name
        }
    }

    /// `true` for a vendor or unknown control message kept raw (a client logs these).
    public var isUninterpreted: Bool {
        switch self {
        case .command(.vendor), .command(.unknown), .response(.vendor), .response(.unknown),
            .notification(.vendor), .notification(.unknown), .data(.other), .reserved:
            true
        default: false
        }
    }

    /// The message as a raw message (identity and payload), ready for ``UCISegmenter``.
    /// - Throws: the encoding errors of the message's type.
    public func rawMessage() throws(UCIError) -> UCIRawMessage {
        switch self {
        case .command(let m): try m.rawMessage()
        case .response(let m): try m.rawMessage()
        case .notification(let m): try m.rawMessage()
        case .data(let m): try m.rawMessage()
        case .reserved(let raw): raw
        }
    }

    /// The message's wire packets, segmented by `segmenter`.
    /// - Throws: the encoding errors of the message's type.
    public func packets(_ segmenter: UCISegmenter = UCISegmenter()) throws(UCIError) -> [UCIPacket] {
        segmenter.packets(for: try rawMessage())
    }
}
